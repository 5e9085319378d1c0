import { sql, type Transaction } from "kysely";
import type { Database, Report, ReportDetailsJson, VolumeUnit } from "#db/schema";
import {
  createReportTally,
  lacksAssortment,
  type LogFormula,
  type ReportAssortment,
  type ReportCull,
  type ReportLog,
  type ReportMeasurementContext,
} from "~/domain";
import { photoUrl } from "~/models/measurement-photo.server";
import { speciesOf } from "~/models/timber.server";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "~/utils/errors";

// Reports (docs/decisions/021-reports.md): timber measurements grouped for a buyer. The owner
// organisation's admins make them and add measurements; a generation job (runReportGeneration)
// tallies the logs with app/domain/report.ts and stores the result in `details`. A report may be
// sent to another organisation (recipient_organization_id): that organisation's admins list,
// open and confirm it and read nothing else of the sender's. Everyone else gets a NotFoundError.

type Executor = DB | Transaction<Database>;
type Ctx = Pick<AuthContext, "organizationId" | "isAdmin">;

export const REPORT_THUMBNAILS_PER_PAGE = 5;

/** The add rule's refusal: 422 missing_assortment, naming the measurements (the API adds them to the body). */
export class MissingAssortmentError extends ValidationError {
  constructor(readonly measurementIds: number[]) {
    super({ measurement_ids: ["reports:errors.missingAssortment"] }, "missing_assortment");
  }
}

/** Who looks: the owner organisation, or the recipient organisation's admins. */
export type ReportSide = "owner" | "recipient";

/** The side that "sees" and confirms a report: the recipient when there is one, else the owner. */
export function isAudience(report: Pick<Report, "recipient_organization_id">, side: ReportSide) {
  return report.recipient_organization_id === null ? side === "owner" : side === "recipient";
}

/** Only admins work with reports (the section is an admin entry of the sidebar). */
export function requireReportAdmin(ctx: Ctx) {
  if (!ctx.isAdmin) throw new ForbiddenError();
}

/** The report as the caller may read it, or a NotFoundError (another organisation's, a recipient's non-admin). */
export async function openReport(db: Executor, ctx: Ctx, id: number): Promise<{ report: Report; side: ReportSide }> {
  const report = await db.selectFrom("reports").selectAll().where("id", "=", id).executeTakeFirst();
  if (report && report.organization_id === ctx.organizationId) return { report, side: "owner" };
  if (report && report.recipient_organization_id === ctx.organizationId && ctx.isAdmin)
    return { report, side: "recipient" };
  throw new NotFoundError();
}

async function openOwned(db: Executor, ctx: Ctx, id: number) {
  const { report, side } = await openReport(db, ctx, id);
  requireReportAdmin(ctx);
  // The recipient reads and confirms; it changes nothing else.
  if (side !== "owner") throw new ForbiddenError();
  if (report.confirmed) throw new ConflictError("already_confirmed", { _: ["reports:errors.alreadyConfirmed"] });
  return report;
}

export interface ReportListRow {
  id: number;
  name: string;
  volume_formula: string;
  volume_unit: VolumeUnit;
  reported_at: string;
  confirmed: boolean;
  seen_at: Date | null;
  generating_in_progress: boolean;
  recipient_organization_id: number | null;
  created_at: Date;
  side: ReportSide;
  /** The other organisation's name: the recipient's for the owner, the sender's for the recipient. */
  counterpart: string | null;
  /** Unseen by the caller's side (only the audience's side is ever unseen). */
  unseen: boolean;
  measurements_count: number;
}

/** The organisation's reports and, for its admins, those sent to it; newest first. */
export async function listReports(db: Executor, ctx: Ctx): Promise<ReportListRow[]> {
  const rows = await db
    .selectFrom("reports as r")
    .leftJoin("organizations as owner", "owner.id", "r.organization_id")
    .leftJoin("organizations as recipient", "recipient.id", "r.recipient_organization_id")
    .select([
      "r.id",
      "r.name",
      "r.volume_formula",
      "r.volume_unit",
      "r.reported_at",
      "r.confirmed",
      "r.seen_at",
      "r.generating_in_progress",
      "r.recipient_organization_id",
      "r.organization_id",
      "r.created_at",
      "owner.name as owner_name",
      "recipient.name as recipient_name",
      (eb) =>
        eb
          .selectFrom("report_measurements as rm")
          .innerJoin("measurements as m", "m.id", "rm.measurement_id")
          .select(sql<number>`COUNT(*)`.as("n"))
          .whereRef("rm.report_id", "=", "r.id")
          .where("m.deleted_at", "is", null)
          .as("measurements_count"),
    ])
    .where((eb) =>
      ctx.isAdmin
        ? eb.or([
            eb("r.organization_id", "=", ctx.organizationId),
            eb("r.recipient_organization_id", "=", ctx.organizationId),
          ])
        : eb("r.organization_id", "=", ctx.organizationId),
    )
    .orderBy("r.created_at", "desc")
    .orderBy("r.id", "desc")
    .execute();
  return rows.map((r) => {
    const side: ReportSide = r.organization_id === ctx.organizationId ? "owner" : "recipient";
    return {
      id: r.id,
      name: r.name,
      volume_formula: r.volume_formula,
      volume_unit: r.volume_unit,
      reported_at: r.reported_at,
      confirmed: r.confirmed,
      seen_at: r.seen_at,
      generating_in_progress: r.generating_in_progress,
      recipient_organization_id: r.recipient_organization_id,
      created_at: r.created_at,
      side,
      counterpart: side === "owner" ? (r.recipient_name ?? null) : (r.owner_name ?? null),
      unseen: !r.generating_in_progress && r.seen_at === null && isAudience(r, side),
      measurements_count: Number(r.measurements_count ?? 0),
    };
  });
}

/** The sidebar badge: finished reports the caller's side has not opened yet. */
export async function countUnseenReports(db: Executor, ctx: Ctx): Promise<number> {
  const row = await db
    .selectFrom("reports")
    .select(sql<number>`COUNT(*)`.as("n"))
    .where("generating_in_progress", "=", false)
    .where("seen_at", "is", null)
    .where((eb) =>
      ctx.isAdmin
        ? eb.or([
            eb.and([eb("organization_id", "=", ctx.organizationId), eb("recipient_organization_id", "is", null)]),
            eb("recipient_organization_id", "=", ctx.organizationId),
          ])
        : eb.and([eb("organization_id", "=", ctx.organizationId), eb("recipient_organization_id", "is", null)]),
    )
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The recipient organisation named by its registration code (not the caller's own). */
export async function findRecipientByCode(db: Executor, ctx: Ctx, code: string) {
  const org = await db
    .selectFrom("organizations")
    .select(["id", "name"])
    .where("registration_code", "=", code.trim())
    .where("id", "!=", ctx.organizationId)
    .orderBy("id")
    .executeTakeFirst();
  if (!org) throw new ValidationError({ recipient_registration_code: ["reports:errors.unknownRecipient"] });
  return org;
}

export interface NewReport {
  name: string;
  volume_formula: string;
  volume_unit: VolumeUnit;
  reported_at: string;
  recipient_registration_code?: string | null;
}

/** A new report, generating at once (its job tallies what it holds). Returns the row. */
export async function createReport(db: Executor, ctx: Ctx & Pick<AuthContext, "userId">, values: NewReport) {
  requireReportAdmin(ctx);
  const recipient = values.recipient_registration_code
    ? await findRecipientByCode(db, ctx, values.recipient_registration_code)
    : null;
  const r = await db
    .insertInto("reports")
    .values({
      organization_id: ctx.organizationId,
      recipient_organization_id: recipient?.id ?? null,
      name: values.name,
      volume_formula: values.volume_formula,
      volume_unit: values.volume_unit,
      reported_at: values.reported_at,
      generating_in_progress: true,
      generation_enqueued_at: new Date(),
      created_by: ctx.userId,
    })
    .executeTakeFirstOrThrow();
  const id = Number(r.insertId);
  return (await db.selectFrom("reports").selectAll().where("id", "=", id).executeTakeFirstOrThrow()) as Report;
}

export interface AddResult {
  added_measurements: number;
  not_added_measurements: number;
}

/**
 * The spec's add rules, for ids already known to be the organisation's live timber measurements:
 * a measurement without an assortment with a live log that has neither an assortment nor a cull
 * stops everything (422 missing_assortment, naming them); one in an inventory is skipped.
 */
async function classify(db: Executor, organizationId: number, ids: number[]) {
  if (ids.length === 0) return { addable: [] as number[], locked: 0 };
  const rows = await db
    .selectFrom("measurements as m")
    .select([
      "m.id",
      "m.assortment_id",
      "m.inventory_id",
      (eb) =>
        eb
          .exists(
            eb
              .selectFrom("logs as l")
              .select("l.id")
              .whereRef("l.measurement_id", "=", "m.id")
              .where("l.is_deleted", "=", false)
              .where("l.assortment_id", "is", null)
              .where("l.cull_id", "is", null),
          )
          .as("has_unsorted"),
    ])
    .where("m.organization_id", "=", organizationId)
    .where("m.id", "in", ids)
    .execute();
  const open = rows.filter((r) => r.inventory_id === null);
  const missing = open
    .filter((r) =>
      lacksAssortment(
        { assortmentId: r.assortment_id },
        Number(r.has_unsorted) ? [{ assortmentId: null, cullId: null }] : [],
      ),
    )
    .map((r) => r.id)
    .sort((a, b) => a - b);
  if (missing.length) throw new MissingAssortmentError(missing);
  return { addable: open.map((r) => r.id), locked: rows.length - open.length };
}

/** The ids among `ids` that are not the organisation's live timber measurements. */
async function unknownIds(db: Executor, organizationId: number, ids: number[]) {
  if (ids.length === 0) return [];
  const found = await db
    .selectFrom("measurements")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("deleted_at", "is", null)
    .where("id", "in", ids)
    .execute();
  const known = new Set(found.map((f) => f.id));
  return ids.filter((id) => !known.has(id));
}

async function insertMeasurements(trx: Executor, report: Pick<Report, "id" | "organization_id">, ids: number[]) {
  for (let i = 0; i < ids.length; i += 1000) {
    await trx
      .insertInto("report_measurements")
      .values(
        ids
          .slice(i, i + 1000)
          .map((measurement_id) => ({ organization_id: report.organization_id, report_id: report.id, measurement_id })),
      )
      .onDuplicateKeyUpdate({ measurement_id: sql`measurement_id` as unknown as number })
      .execute();
  }
}

async function markRegenerating(trx: Executor, id: number, result: AddResult) {
  await trx
    .updateTable("reports")
    .set({
      generating_in_progress: true,
      generation_enqueued_at: new Date(),
      generation_attempts: 0,
      last_added_count: result.added_measurements,
      last_not_added_count: result.not_added_measurements,
      updated_at: sql`CURRENT_TIMESTAMP(3)` as unknown as Date,
    })
    .where("id", "=", id)
    .execute();
}

async function addChecked(db: DB, report: Report, ids: number[]): Promise<AddResult> {
  const { addable, locked } = await classify(db, report.organization_id, ids);
  const result = { added_measurements: addable.length, not_added_measurements: locked };
  if (addable.length === 0) return result;
  await db.transaction().execute(async (trx) => {
    await insertMeasurements(trx, report, addable);
    await markRegenerating(trx, report.id, result);
  });
  return result;
}

/** PATCH /reports/{id}/add_measurements: the caller's (enqueue the job when something was added). */
export async function addMeasurementsToReport(db: DB, ctx: Ctx, id: number, measurementIds: number[]) {
  const report = await openOwned(db, ctx, id);
  const ids = [...new Set(measurementIds)];
  if ((await unknownIds(db, ctx.organizationId, ids)).length)
    throw new ValidationError({ measurement_ids: ["reports:errors.unknownMeasurements"] });
  return addChecked(db, report, ids);
}

/** A NotFoundError unless the storage is the caller organisation's (checked before the plan and the role). */
export async function requireOwnStorage(db: Executor, ctx: Ctx, storageId: number) {
  const storage = await db
    .selectFrom("storages")
    .select("id")
    .where("id", "=", storageId)
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!storage) throw new NotFoundError();
}

/** The storage's live timber measurements, or a NotFoundError for another organisation's storage. */
async function storageMeasurementIds(db: Executor, ctx: Ctx, storageId: number) {
  const storage = await db
    .selectFrom("storages")
    .select(["id", "name"])
    .where("id", "=", storageId)
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!storage) throw new NotFoundError();
  const rows = await db
    .selectFrom("measurements")
    .select("id")
    .where("organization_id", "=", ctx.organizationId)
    .where("storage_id", "=", storageId)
    .where("deleted_at", "is", null)
    .execute();
  return { storage, ids: rows.map((r) => r.id) };
}

/** PATCH /reports/{reportId}/storage/{storageId}: every live measurement of the storage. */
export async function addStorageToReport(db: DB, ctx: Ctx, id: number, storageId: number) {
  const report = await openOwned(db, ctx, id);
  const { ids } = await storageMeasurementIds(db, ctx, storageId);
  return addChecked(db, report, ids);
}

/**
 * POST /reports/storage/{id} {volume_formula}: a report of the storage's measurements, named after
 * it (`name(storageName)`), in m³, dated today in the caller's zone. The add rules apply first:
 * nothing is created when they refuse.
 */
export async function generateStorageReport(
  db: DB,
  ctx: Ctx & Pick<AuthContext, "userId">,
  storageId: number,
  values: { volume_formula: string; reported_at: string },
  name: (storageName: string) => string,
) {
  requireReportAdmin(ctx);
  const { storage, ids } = await storageMeasurementIds(db, ctx, storageId);
  const { addable, locked } = await classify(db, ctx.organizationId, ids);
  const result = { added_measurements: addable.length, not_added_measurements: locked };
  return db.transaction().execute(async (trx) => {
    const report = await createReport(trx, ctx, {
      name: name(storage.name).slice(0, 255),
      volume_formula: values.volume_formula,
      volume_unit: "m^3",
      reported_at: values.reported_at,
    });
    await insertMeasurements(trx, report, addable);
    await markRegenerating(trx, report.id, result);
    return { report, ...result };
  });
}

/** Opening the report on its page: the audience's first opening marks it seen. */
export async function markReportSeen(db: Executor, ctx: Ctx, id: number) {
  const { report, side } = await openReport(db, ctx, id);
  if (!isAudience(report, side) || report.seen_at || report.generating_in_progress) return report;
  const seenAt = new Date();
  await db.updateTable("reports").set({ seen_at: seenAt }).where("id", "=", id).where("seen_at", "is", null).execute();
  return { ...report, seen_at: seenAt };
}

/** PATCH /reports/{id}/confirm: one way, by the audience's admins, once generated. */
export async function confirmReport(db: Executor, ctx: Ctx & Pick<AuthContext, "userId">, id: number) {
  const { report, side } = await openReport(db, ctx, id);
  requireReportAdmin(ctx);
  if (!isAudience(report, side)) throw new ForbiddenError();
  if (report.confirmed) throw new ConflictError("already_confirmed", { _: ["reports:errors.alreadyConfirmed"] });
  if (report.generating_in_progress) throw new ConflictError("generating", { _: ["reports:errors.generating"] });
  const now = new Date();
  await db
    .updateTable("reports")
    .set({ confirmed: true, confirmed_at: now, confirmed_by: ctx.userId, seen_at: report.seen_at ?? now })
    .where("id", "=", id)
    .where("confirmed", "=", false)
    .execute();
  return { ...report, confirmed: true, confirmed_at: now, seen_at: report.seen_at ?? now };
}

export async function reportMeasurementIds(db: Executor, report: Pick<Report, "id" | "organization_id">) {
  const rows = await db
    .selectFrom("report_measurements as rm")
    .innerJoin("measurements as m", "m.id", "rm.measurement_id")
    .select("m.id")
    .where("rm.report_id", "=", report.id)
    .where("m.organization_id", "=", report.organization_id)
    .where("m.deleted_at", "is", null)
    .orderBy("m.id")
    .execute();
  return rows.map((r) => r.id);
}

export interface ReportMeasurementItem {
  id: number;
  photo_thumbnail: string | null;
  taken_at: Date;
  logs_count: number;
  volume: number;
  volume_formula: string;
}

/**
 * One page of the report's measurements (5 a page, oldest first). Thumbnails go through the
 * report (`/reports/{id}/thumbnails/{measurementId}`) so the recipient sees them too.
 */
export async function reportMeasurementsPage(
  db: Executor,
  report: Pick<Report, "id" | "organization_id">,
  page: number,
) {
  const base = db
    .selectFrom("report_measurements as rm")
    .innerJoin("measurements as m", "m.id", "rm.measurement_id")
    .where("rm.report_id", "=", report.id)
    .where("m.organization_id", "=", report.organization_id)
    .where("m.deleted_at", "is", null);
  const total = Number((await base.select(sql<number>`COUNT(*)`.as("n")).executeTakeFirst())?.n ?? 0);
  const totalPages = Math.max(1, Math.ceil(total / REPORT_THUMBNAILS_PER_PAGE));
  const current = Math.min(Math.max(1, page), totalPages);
  const rows = await base
    .select(["m.id", "m.photo_thumbnail_key", "m.taken_at", "m.logs_count", "m.volume", "m.volume_formula"])
    .orderBy("m.taken_at")
    .orderBy("m.id")
    .limit(REPORT_THUMBNAILS_PER_PAGE)
    .offset((current - 1) * REPORT_THUMBNAILS_PER_PAGE)
    .execute();
  const items: ReportMeasurementItem[] = rows.map((r) => ({
    id: r.id,
    photo_thumbnail: r.photo_thumbnail_key ? `/reports/${report.id}/thumbnails/${r.id}` : null,
    taken_at: r.taken_at,
    logs_count: r.logs_count,
    volume: Number(r.volume),
    volume_formula: r.volume_formula,
  }));
  return { items, page: current, totalPages, total };
}

/** The thumbnail key of a measurement that is in the report (for the report's thumbnail route). */
export async function reportThumbnailKey(
  db: Executor,
  report: Pick<Report, "id" | "organization_id">,
  measurementId: number,
) {
  const row = await db
    .selectFrom("report_measurements as rm")
    .innerJoin("measurements as m", "m.id", "rm.measurement_id")
    .select(["m.photo_thumbnail_key"])
    .where("rm.report_id", "=", report.id)
    .where("m.id", "=", measurementId)
    .where("m.organization_id", "=", report.organization_id)
    .where("m.deleted_at", "is", null)
    .executeTakeFirst();
  return row?.photo_thumbnail_key ?? null;
}

/** The owner's own thumbnail URL (the files route), for the owner's screens where it is simpler. */
export const ownerThumbnailUrl = (measurementId: number) => photoUrl("timber", measurementId, "thumbnail");

/** The spec's entity (GET /reports/{id}). */
export async function serializeReport(db: Executor, report: Report) {
  const details = report.details;
  return {
    id: report.id,
    name: report.name,
    volume_formula: report.volume_formula,
    volume_unit: report.volume_unit,
    reported_at: report.reported_at,
    confirmed: report.confirmed,
    confirmed_at: report.confirmed_at,
    seen_at: report.seen_at,
    generating_in_progress: report.generating_in_progress,
    recipient_organization_id: report.recipient_organization_id,
    measurement_ids: await reportMeasurementIds(db, report),
    created_at: report.created_at,
    logs: details?.logs ?? [],
    characteristics: (details?.characteristics ?? []).map((c) => ({ ...c })),
    culls: details?.culls ?? [],
    totals: details?.totals ?? null,
  };
}

// ---- the generation job ----

export async function getReportById(db: Executor, id: number) {
  return db.selectFrom("reports").selectAll().where("id", "=", id).executeTakeFirst();
}

/**
 * Tallies the report's live measurements' live logs under its formula and unit and stores them.
 * Streams the logs (200,000 in a few seconds); the measurements themselves are not changed.
 * Returns the finished report, or undefined when there was nothing to do.
 */
export async function runReportGeneration(db: DB, id: number): Promise<Report | undefined> {
  const report = await getReportById(db, id);
  if (!report || !report.generating_in_progress) return undefined;
  const org = report.organization_id;
  await db
    .updateTable("reports")
    .set({ generation_attempts: sql`generation_attempts + 1` as unknown as number })
    .where("id", "=", id)
    .execute();
  const startedAt = new Date();
  const [{ assortments, culls }, measurements] = await Promise.all([
    reportLookups(db, org),
    db
      .selectFrom("report_measurements as rm")
      .innerJoin("measurements as m", "m.id", "rm.measurement_id")
      .select(["m.id", "m.log_length", "m.assortment_id", "m.coefficient", "m.wood_type_id"])
      .where("rm.report_id", "=", id)
      .where("m.organization_id", "=", org)
      .where("m.deleted_at", "is", null)
      .execute(),
  ]);
  const tally = createReportTally({
    formula: report.volume_formula as LogFormula,
    unit: report.volume_unit,
    assortments,
    culls,
  });
  const contexts = new Map<number, ReportMeasurementContext>(measurements.map((m) => [m.id, measurementContext(m)]));
  const done = new Set<number>();
  let current: number | null = null;
  let batch: ReportLog[] = [];
  const flush = () => {
    if (current !== null) {
      tally.addMeasurement(contexts.get(current)!, batch);
      done.add(current);
    }
    batch = [];
  };
  if (measurements.length) {
    const stream = db
      .selectFrom("report_measurements as rm")
      .innerJoin("measurements as m", "m.id", "rm.measurement_id")
      .innerJoin("logs as l", "l.measurement_id", "m.id")
      .select(["l.measurement_id", "l.d", "l.cull_id", "l.assortment_id"])
      .where("rm.report_id", "=", id)
      .where("m.organization_id", "=", org)
      .where("m.deleted_at", "is", null)
      .where("l.is_deleted", "=", false)
      .orderBy("l.measurement_id")
      .stream(2000);
    for await (const l of stream) {
      if (l.measurement_id !== current) {
        flush();
        current = l.measurement_id;
      }
      batch.push({ d: Number(l.d), cullId: l.cull_id, assortmentId: l.assortment_id });
    }
    flush();
  }
  for (const [mid, c] of contexts) if (!done.has(mid)) tally.addMeasurement(c, []);
  const details: ReportDetailsJson = tally.finish();
  // Only this run's request is finished: an add that came in meanwhile set generation_enqueued_at
  // after this run started, and its own job (same key) tallies again.
  await db
    .updateTable("reports")
    .set({
      details: JSON.stringify(details),
      generating_in_progress:
        sql`CASE WHEN generation_enqueued_at > ${startedAt} THEN generating_in_progress ELSE FALSE END` as unknown as boolean,
      generated_at: new Date(),
      generation_error: null,
      updated_at: sql`CURRENT_TIMESTAMP(3)` as unknown as Date,
    })
    .where("id", "=", id)
    .execute();
  return getReportById(db, id);
}

export async function failReportGeneration(db: DB, id: number, reason: string) {
  await db
    .updateTable("reports")
    .set({ generating_in_progress: false, generation_error: reason.slice(0, 500), generated_at: new Date() })
    .where("id", "=", id)
    .execute();
}

export async function findStaleReports(db: DB, before: Date, limit = 100) {
  return db
    .selectFrom("reports")
    .select(["id", "generation_attempts"])
    .where("generating_in_progress", "=", true)
    .where(sql<boolean>`COALESCE(generation_enqueued_at, created_at) < ${before}`)
    .orderBy("id")
    .limit(limit)
    .execute();
}

export async function noteReportReenqueued(db: DB, id: number) {
  await db.updateTable("reports").set({ generation_enqueued_at: new Date() }).where("id", "=", id).execute();
}

/**
 * For an export made by `organizationId`: the report if that organisation owns it or receives it
 * (the request already held the recipient side to its admins). Undefined otherwise.
 */
export async function readReportFor(db: Executor, organizationId: number, id: number) {
  const report = await getReportById(db, id);
  if (!report) return undefined;
  if (report.organization_id !== organizationId && report.recipient_organization_id !== organizationId)
    return undefined;
  return report;
}

/** Every live measurement of the report, oldest first (reports_excel's measurements sheet). */
export async function reportMeasurementRows(db: Executor, report: Pick<Report, "id" | "organization_id">) {
  return db
    .selectFrom("report_measurements as rm")
    .innerJoin("measurements as m", "m.id", "rm.measurement_id")
    .select(["m.id", "m.taken_at", "m.logs_count"])
    .where("rm.report_id", "=", report.id)
    .where("m.organization_id", "=", report.organization_id)
    .where("m.deleted_at", "is", null)
    .orderBy("m.taken_at")
    .orderBy("m.id")
    .execute();
}

/** The assortments (with prices) and culls a report of the organisation is tallied with. */
export async function reportLookups(db: Executor, organizationId: number) {
  const [assortments, culls] = await Promise.all([
    db
      .selectFrom("assortments")
      .select(["id", "name", "price_cents", "price_per_log_cents", "volume_unit"])
      .where((eb) => eb.or([eb("organization_id", "=", organizationId), eb("organization_id", "is", null)]))
      .execute(),
    db
      .selectFrom("culls")
      .select(["id", "reason"])
      .where((eb) => eb.or([eb("organization_id", "=", organizationId), eb("organization_id", "is", null)]))
      .execute(),
  ]);
  return {
    assortments: assortments.map((a): ReportAssortment => ({
      id: a.id,
      name: a.name,
      priceCents: a.price_cents,
      pricePerLogCents: a.price_per_log_cents,
      volumeUnit: a.volume_unit,
    })),
    culls: culls.map((c): ReportCull => ({ id: c.id, name: c.reason })),
  };
}

/** What the report's rule needs of a measurement (app/domain/report.ts). */
export function measurementContext(m: {
  log_length: number | string | null;
  assortment_id: number | null;
  coefficient: number | string | null;
  wood_type_id: number | null;
}): ReportMeasurementContext {
  return {
    logLengthM: m.log_length === null ? null : Number(m.log_length),
    assortmentId: m.assortment_id,
    coefficient: m.coefficient === null ? null : Number(m.coefficient),
    species: speciesOf(m.wood_type_id),
  };
}

function reportLogsQuery(db: Executor, report: Pick<Report, "id" | "organization_id">) {
  return db
    .selectFrom("report_measurements as rm")
    .innerJoin("measurements as m", "m.id", "rm.measurement_id")
    .innerJoin("logs as l", "l.measurement_id", "m.id")
    .where("rm.report_id", "=", report.id)
    .where("m.organization_id", "=", report.organization_id)
    .where("m.deleted_at", "is", null)
    .where("l.is_deleted", "=", false);
}

/** How many live logs the report's live measurements hold (the per-log exports' progress). */
export async function countReportLogs(db: Executor, report: Pick<Report, "id" | "organization_id">) {
  const row = await reportLogsQuery(db, report)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Every live log of the report's live measurements, measurement by measurement (oldest taken
 * first, then by id), logs in their order: streamed, so a 200,000-log report stays flat in memory.
 */
export function streamReportLogs(db: Executor, report: Pick<Report, "id" | "organization_id">) {
  return reportLogsQuery(db, report)
    .leftJoin("storages as s", "s.id", "m.storage_id")
    .select([
      "m.id as measurement_id",
      "m.taken_at",
      "m.log_length",
      "m.assortment_id as measurement_assortment_id",
      "m.coefficient",
      "m.wood_type_id",
      "s.name as storage_name",
      "l.id as log_id",
      "l.d",
      "l.cull_id",
      "l.assortment_id",
    ])
    .orderBy("m.taken_at")
    .orderBy("m.id")
    .orderBy("l.id")
    .stream(2000);
}

/** A report's measurements with their photo thumbnails' keys, oldest first (the report's PDF). */
export async function reportPrintMeasurements(
  db: Executor,
  report: Pick<Report, "id" | "organization_id">,
  limit: number,
) {
  return db
    .selectFrom("report_measurements as rm")
    .innerJoin("measurements as m", "m.id", "rm.measurement_id")
    .leftJoin("storages as s", "s.id", "m.storage_id")
    .select(["m.id", "m.taken_at", "m.logs_count", "m.photo_thumbnail_key", "s.name as storage_name"])
    .where("rm.report_id", "=", report.id)
    .where("m.organization_id", "=", report.organization_id)
    .where("m.deleted_at", "is", null)
    .orderBy("m.taken_at")
    .orderBy("m.id")
    .limit(limit)
    .execute();
}
