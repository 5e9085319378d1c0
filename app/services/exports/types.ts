import type { ExportKind } from "#db/schema";
import type { VolumeUnit } from "~/domain";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import type { DetailPart } from "~/utils/export-detail";
import type { TFunction } from "i18next";
import type { Writable } from "node:stream";
import type { z } from "zod";

// What a report type is: one module declares one of these and registry.server.ts lists it. The
// engine (../exports.server.ts), the POST /excel_exports and /pdf_exports answers and the
// exports list read nothing else. docs/decisions/008-export-types-and-measurement-kinds.md
// shows how to add one.

/** The ids POST /excel_exports may carry (spec); a type takes some of them. */
export const SELECTION_KEYS = [
  "measurement_ids",
  "measurement_id",
  "storage_id",
  "inventory_id",
  "report_id",
  "container_id",
  "bill_of_lading_id",
  "mixed_stack_report_id",
] as const;
export type SelectionKey = (typeof SELECTION_KEYS)[number];

/**
 * The caller of a request, as far as a type's row source needs it. Requests from the app carry
 * the whole signed-in context; a source that needs the caller's rights (QR labels make public
 * links) reads them here and refuses without them.
 */
export type RequestCtx = Pick<AuthContext, "organizationId" | "userId"> &
  Partial<Pick<AuthContext, "roles" | "isAdmin" | "organization" | "user">>;

/**
 * Where a type's rows come from. It is asked twice: when the request is made (is there
 * anything, is every named record the caller's) and when the job runs (what is left of it).
 */
export interface RowSource<S> {
  /**
   * At request time: "not_found" when the selection names a record of another organisation
   * (or none), else the selection to store (the source may complete it) and how many records
   * it selects (0 answers 422 emptySelection).
   */
  request(db: DB, ctx: RequestCtx, selection: S): Promise<"not_found" | { selection: S; count: number }>;
  /** The stored selection as the job reads it back (JSON turned dates into strings). */
  revive(params: unknown): S;
  /**
   * In the job: how many records are still there (0: the export fails, nothing left), how many
   * data rows to expect (for the progress figure), and what was left out since the request,
   * as sentences for the export's status detail (the export is then "partially done").
   */
  prepare(db: DB, organizationId: number, selection: S, t: TFunction): Promise<PreparedRows>;
}

export interface PreparedRows {
  records: number;
  expectedRows: number;
  /** What was left out and why, stored as keys and worded when shown. */
  leftOut: DetailPart[];
}

/** What an Excel writer gets: where to write, what to write, and for whom. */
export interface ExcelWriteContext<S> {
  db: DB;
  organizationId: number;
  selection: S;
  /** The owner's language; namespaces exports and lookups. */
  t: TFunction;
  precision: number;
  volumeUnit: VolumeUnit;
  timeZone: string;
  /** From the row source, for the progress figure. */
  expectedRows: number;
  onProgress: (fraction: number) => Promise<void>;
}

interface ExportTypeBase<S> {
  /** The spec's report_type. */
  reportType: string;
  /** Its name in the exports list and at the start of each export's name (a key of every locale). */
  labelKey: `exports:types.${string}`;
  /**
   * The export's name, which is also its file's name, is the label in the owner's language,
   * this (e.g. "#42" for one measurement) and the owner's date and time.
   */
  nameSuffix?(selection: S): string | undefined;
  /** The organisation feature (plan flag or entitlement) it needs; without it POST answers 422. */
  feature?: string;
  /** The spec's ids it takes; any other one in the body answers 422 unsupportedSelection. */
  selectionKeys: readonly SelectionKey[];
  /**
   * POST /pdf_exports/{id}: which selection id the path's {id} is. Types without one are
   * refused there.
   */
  pathKey?: SelectionKey;
  /** Reads the selection from the request body (its ids, and any filters the type takes). */
  selection: z.ZodType<S>;
  source: RowSource<S>;
}

export interface ExcelExportType<S> extends ExportTypeBase<S> {
  kind: "excel";
  /** Streams the workbook into `out` (exceljs' WorkbookWriter through xlsx-writer.server.ts). */
  write(out: Writable, ctx: ExcelWriteContext<S>): Promise<{ rowCount: number }>;
}

export interface PdfExportType<S> extends ExportTypeBase<S> {
  kind: "pdf";
  /**
   * The app's print route Chromium prints (services/pdf.server.ts); it is opened with
   * ?token=(a print token naming the export)&lng=(the owner's language) and marks itself
   * ready with [data-print-ready].
   */
  printPath: `/print/${string}`;
  /** The page margin Chromium prints with (default 12 mm); label sheets print edge to edge ("0"). */
  pageMargin?: string;
}

// The registry holds types of every selection shape; each module checks its own.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the selection type is each module's own
export type ExportType<S = any> = ExcelExportType<S> | PdfExportType<S>;

export type { ExportKind };
