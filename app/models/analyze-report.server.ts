import { sql } from "kysely";
import type { AnalyzeReport, AnalyzeReportCase } from "#db/schema";
import type { AnalysisMeasurement } from "~/domain/duplicate-measurements";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import { NotFoundError, ValidationError } from "~/utils/errors";
import { photoUrl } from "./measurement-photo.server";

// Analyze reports (duplicate analysis, issue 19) and their cases. Screen and API queries are
// scoped by the caller's organisation; the job's own functions work by the report's id.

type Ctx = Pick<AuthContext, "organizationId" | "userId">;

export const ANALYZE_TYPE_KEY = "duplicate_storage_measurements";
export const CASES_PAGE_SIZE = 5;

export interface NewAnalyzeReport {
  name: string;
  period_from: string;
  period_to: string;
  storage_ids: number[];
  measurement_types: number[];
}

export async function createAnalyzeReport(db: DB, ctx: Ctx, input: NewAnalyzeReport): Promise<AnalyzeReport> {
  return db.transaction().execute(async (trx) => {
    // Only the organisation's own storages: another's id is refused beside the field.
    const storageIds = input.storage_ids.length
      ? (
          await trx
            .selectFrom("storages")
            .select("id")
            .where("organization_id", "=", ctx.organizationId)
            .where("id", "in", input.storage_ids)
            .execute()
        ).map((s) => s.id)
      : [];
    if (storageIds.length !== new Set(input.storage_ids).size) {
      throw new ValidationError({ storage_ids: ["analysis:errors.storage"] });
    }
    const r = await trx
      .insertInto("analyze_reports")
      .values({
        organization_id: ctx.organizationId,
        user_id: ctx.userId,
        name: input.name,
        type_key: ANALYZE_TYPE_KEY,
        period_from: input.period_from,
        period_to: input.period_to,
        storage_ids: JSON.stringify(storageIds),
        measurement_types: JSON.stringify(input.measurement_types),
        enqueued_at: new Date(),
      })
      .executeTakeFirstOrThrow();
    return trx.selectFrom("analyze_reports").selectAll().where("id", "=", Number(r.insertId)).executeTakeFirstOrThrow();
  });
}

export async function listAnalyzeReports(db: DB, ctx: Pick<Ctx, "organizationId">) {
  return db
    .selectFrom("analyze_reports")
    .selectAll()
    .where("organization_id", "=", ctx.organizationId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(500)
    .execute();
}

export async function getAnalyzeReport(db: DB, ctx: Pick<Ctx, "organizationId">, id: number) {
  return db
    .selectFrom("analyze_reports")
    .selectAll()
    .where("id", "=", id)
    .where("organization_id", "=", ctx.organizationId)
    .executeTakeFirst();
}

/** Duration in whole minutes (rounded up: a run of seconds shows as 1), null until it ended. */
export function durationMinutes(row: Pick<AnalyzeReport, "started_at" | "completed_at">) {
  if (!row.started_at || !row.completed_at) return null;
  return Math.max(1, Math.ceil((row.completed_at.getTime() - row.started_at.getTime()) / 60_000));
}

/** The spec's Analyze report (without its cases). */
export function serializeAnalyzeReport(row: AnalyzeReport) {
  return {
    id: row.id,
    name: row.name,
    type_key: row.type_key,
    status: row.status,
    status_detail: row.status === "failed" ? row.status_detail : null,
    period_from: row.period_from,
    period_to: row.period_to,
    storage_ids: row.storage_ids,
    measurement_types: row.measurement_types,
    started_at: row.started_at?.toISOString() ?? null,
    completed_at: row.completed_at?.toISOString() ?? null,
    duration_minutes: durationMinutes(row),
    created_at: row.created_at.toISOString(),
  };
}

export function serializeCase(row: AnalyzeReportCase) {
  return {
    id: row.id,
    analyze_report_id: row.analyze_report_id,
    reasons: row.reasons,
    measurements: row.measurement_ids,
    resolved_at: row.resolved_at?.toISOString() ?? null,
  };
}

/** One page of a report's cases, with what the screen shows of each case's measurements. */
export async function listCases(db: DB, ctx: Pick<Ctx, "organizationId">, reportId: number, page: number) {
  const base = db
    .selectFrom("analyze_report_cases")
    .where("organization_id", "=", ctx.organizationId)
    .where("analyze_report_id", "=", reportId);
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow();
  const pages = Math.max(1, Math.ceil(Number(total) / CASES_PAGE_SIZE));
  const current = Math.min(Math.max(1, page), pages);
  const rows = await base
    .selectAll()
    .orderBy("id")
    .limit(CASES_PAGE_SIZE)
    .offset((current - 1) * CASES_PAGE_SIZE)
    .execute();
  const ids = [...new Set(rows.flatMap((r) => r.measurement_ids))];
  const measurements = ids.length
    ? await db
        .selectFrom("measurements as m")
        .innerJoin("storages as s", "s.id", "m.storage_id")
        .select([
          "m.id",
          "m.taken_at",
          "m.volume",
          "m.logs_count",
          "m.photo_thumbnail_key",
          "m.deleted_at",
          "s.name as storage_name",
        ])
        .where("m.organization_id", "=", ctx.organizationId)
        .where("m.id", "in", ids)
        .execute()
    : [];
  const byId = new Map(measurements.map((m) => [m.id, m]));
  return {
    page: current,
    pages,
    total: Number(total),
    cases: rows.map((r) => ({
      ...serializeCase(r),
      items: r.measurement_ids.flatMap((id) => {
        const m = byId.get(id);
        if (!m) return [];
        return [
          {
            id: m.id,
            storage_name: m.storage_name,
            taken_at: m.taken_at.toISOString(),
            volume: m.volume,
            logs_count: m.logs_count,
            deleted: m.deleted_at !== null,
            photo_thumbnail: m.photo_thumbnail_key ? photoUrl("timber", m.id, "thumbnail") : null,
          },
        ];
      }),
    })),
  };
}

export async function getCase(db: DB, ctx: Pick<Ctx, "organizationId">, reportId: number, caseId: number) {
  return db
    .selectFrom("analyze_report_cases")
    .selectAll()
    .where("id", "=", caseId)
    .where("analyze_report_id", "=", reportId)
    .where("organization_id", "=", ctx.organizationId)
    .executeTakeFirst();
}

/** Marks a case resolved (once: resolving again keeps the first time). Throws 404 for another's case. */
export async function resolveCase(db: DB, ctx: Ctx, reportId: number, caseId: number) {
  const row = await getCase(db, ctx, reportId, caseId);
  if (!row) throw new NotFoundError();
  if (!row.resolved_at) {
    await db
      .updateTable("analyze_report_cases")
      .set({ resolved_at: new Date(), resolved_by: ctx.userId })
      .where("id", "=", caseId)
      .where("organization_id", "=", ctx.organizationId)
      .where("resolved_at", "is", null)
      .execute();
  }
  return (await getCase(db, ctx, reportId, caseId))!;
}

// ---------- the job's side (by id) ----------

export async function getAnalyzeReportById(db: DB, id: number) {
  return db.selectFrom("analyze_reports").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function markAnalysisStarted(db: DB, id: number) {
  await db
    .updateTable("analyze_reports")
    .set((eb) => ({ started_at: new Date(), attempts: eb("attempts", "+", 1) }))
    .where("id", "=", id)
    .where("status", "=", "created")
    .execute();
}

/** The measurements the analysis compares, with their logs (storage measurements of the period). */
export async function loadAnalysisMeasurements(db: DB, report: AnalyzeReport) {
  let q = db
    .selectFrom("measurements")
    .select([
      "id",
      "storage_id",
      "taken_at",
      "latitude",
      "longitude",
      "logs_count",
      "volume",
      "photo_key",
      "photo_thumbnail_key",
      "photo_sha256",
      "photo_dhash",
    ])
    .where("organization_id", "=", report.organization_id)
    .where("deleted_at", "is", null)
    .where("taken_at", ">=", new Date(`${report.period_from}T00:00:00Z`))
    .where("taken_at", "<", new Date(new Date(`${report.period_to}T00:00:00Z`).getTime() + 86_400_000));
  if (report.storage_ids.length) q = q.where("storage_id", "in", report.storage_ids);
  if (report.measurement_types.length) q = q.where("measurement_type_id", "in", report.measurement_types);
  const rows = await q.orderBy("id").execute();
  const logsById = new Map<number, AnalysisMeasurement["logs"][number][]>();
  for (const r of rows) logsById.set(r.id, []);
  // Logs in id ranges of the selected measurements, streamed rather than loaded whole.
  const chunk = 2000;
  for (let i = 0; i < rows.length; i += chunk) {
    const ids = rows.slice(i, i + chunk).map((r) => r.id);
    const stream = db
      .selectFrom("logs")
      .select(["measurement_id", "x", "y", "r", "d"])
      .where("organization_id", "=", report.organization_id)
      .where("measurement_id", "in", ids)
      .where("is_deleted", "=", false)
      .stream(5000);
    for await (const l of stream) logsById.get(l.measurement_id)?.push({ x: l.x, y: l.y, r: l.r, d: l.d });
  }
  return rows.map((r) => ({
    photoKey: r.photo_key,
    thumbnailKey: r.photo_thumbnail_key,
    measurement: {
      id: r.id,
      storageId: r.storage_id,
      takenAt: r.taken_at.getTime(),
      latitude: r.latitude,
      longitude: r.longitude,
      logsCount: r.logs_count,
      volume: r.volume,
      photoSha256: r.photo_sha256,
      photoDhash: r.photo_dhash,
      logs: logsById.get(r.id) ?? [],
    } satisfies AnalysisMeasurement,
  }));
}

export async function saveFingerprints(
  db: DB,
  organizationId: number,
  id: number,
  values: { photo_sha256?: string | null; photo_dhash?: string | null },
) {
  await db
    .updateTable("measurements")
    .set(values)
    .where("id", "=", id)
    .where("organization_id", "=", organizationId)
    .execute();
}

/** Stores the cases and finishes the report in one transaction (a rerun replaces, never doubles). */
export async function finishAnalysis(
  db: DB,
  report: AnalyzeReport,
  cases: Array<{ measurementIds: number[]; reasons: string[]; score: number }>,
  compared: number,
) {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("analyze_report_cases").where("analyze_report_id", "=", report.id).execute();
    for (let i = 0; i < cases.length; i += 500) {
      await trx
        .insertInto("analyze_report_cases")
        .values(
          cases.slice(i, i + 500).map((c) => ({
            organization_id: report.organization_id,
            analyze_report_id: report.id,
            reasons: JSON.stringify(c.reasons),
            measurement_ids: JSON.stringify(c.measurementIds),
            score: c.score,
          })),
        )
        .execute();
    }
    await trx
      .updateTable("analyze_reports")
      .set({ status: "finished", completed_at: new Date(), measurements_compared: compared, status_detail: null })
      .where("id", "=", report.id)
      .execute();
  });
}

export async function failAnalysis(db: DB, id: number, reason: string) {
  await db
    .updateTable("analyze_reports")
    .set({ status: "failed", completed_at: new Date(), status_detail: reason.slice(0, 500) })
    .where("id", "=", id)
    .where("status", "=", "created")
    .execute();
}

/** Reports still "created" since before `before` (lost job, killed worker): the sweep's list. */
export async function findStaleAnalyses(db: DB, before: Date, limit = 100) {
  return db
    .selectFrom("analyze_reports")
    .select(["id", "attempts"])
    .where("status", "=", "created")
    .where(sql<boolean>`COALESCE(enqueued_at, created_at) < ${before}`)
    .orderBy("id")
    .limit(limit)
    .execute();
}

export async function noteAnalysisReenqueued(db: DB, id: number) {
  await db.updateTable("analyze_reports").set({ enqueued_at: new Date() }).where("id", "=", id).execute();
}
