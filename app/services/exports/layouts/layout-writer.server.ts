import { SheetWriter, type CellValue, type SheetColumn, type WorkbookWriter } from "~/services/xlsx-writer.server";
import type { LayoutColumn } from "~/utils/schemas/export-layouts";
import type { TFunction } from "i18next";

// The one writer of the configurable export layouts (docs/decisions/026-exports-and-labels.md):
// a target's catalogue says what each column is (its default header, kind, format and how its
// cell is read from a row); the layout picks columns, their order and headers of its own.

export interface CatalogueColumn<R, C> {
  key: string;
  /** The default header, in the owner's language. */
  header: (t: TFunction, c: C) => string;
  kind: SheetColumn["kind"];
  numFmt?: (c: C) => string;
  width: number;
  cell: (row: R, c: C) => CellValue;
}
export type Catalogue<R, C> = readonly CatalogueColumn<R, C>[];

/** The layout's columns that the catalogue knows, in the layout's order; no layout: all of them. */
export function resolveLayout<R, C>(catalogue: Catalogue<R, C>, layout: LayoutColumn[] | null) {
  if (!layout?.length) return catalogue.map((column) => ({ column, header: null as string | null }));
  return layout.flatMap((l) => {
    const column = catalogue.find((c) => c.key === l.key);
    return column ? [{ column, header: l.header }] : [];
  });
}

/** A sheet of the chosen columns; add() takes a row of the catalogue's row type. */
export function layoutSheet<R, C>(
  wb: WorkbookWriter,
  name: string,
  t: TFunction,
  catalogue: Catalogue<R, C>,
  layout: LayoutColumn[] | null,
  c: C,
) {
  const chosen = resolveLayout(catalogue, layout);
  const sheet = new SheetWriter(
    wb,
    name,
    chosen.map(({ column, header }) => ({
      header: header ?? column.header(t, c),
      kind: column.kind,
      numFmt: column.numFmt?.(c),
      width: Math.max(column.width, Math.min(40, (header?.length ?? 0) + 2)),
    })),
  );
  return {
    sheet,
    add: (row: R) => sheet.add(chosen.map(({ column }) => column.cell(row, c))),
  };
}
