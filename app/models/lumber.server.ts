import { sql, type Transaction } from "kysely";
import type { Database, LumberMeasurement } from "#db/schema";
import { lumberMeasurementVolumeM3, plankCount, type PlankRect } from "~/domain/lumber";
import { inspectPhoto } from "~/models/measurement-photo.server";
import { canEdit, getStorageRow, NotFoundError, requireEditable, requireEditor, TimberValidationError } from "~/models/timber.server";
import type { FileStorage } from "~/services/file-storage.server";
import type { AuthContext } from "~/utils/auth.server";
import type { DB } from "~/utils/db.server";
import { isNewPlankComplete, type LumberPatch } from "~/utils/schemas/lumber";

// Lumber measurements: a photo of a package's end with its planks marked as rectangles in image
// pixels. Plank edits recount the planks and recompute the volume on the server, only through
// app/domain/lumber.ts, from the product's plank size (millimetres). Every query is scoped by
// the organisation; another organisation's row is "not found". Editing rights, the inventory
// lock and the error classes are the timber ones, so the API answers them the same way.

type Ctx = Pick<AuthContext, "organizationId">;
type Executor = DB | Transaction<Database>;

export const LUMBER_PAGE_SIZE = 5;

export type ProductSize = { id: number; name: string; plank_length: number; plank_width: number; plank_height: number };

/** One lumber measurement of the organisation (deleted ones too when asked), or undefined. */
export async function getLumberMeasurementRow(db: Executor, ctx: Ctx, id: number, opts: { includeDeleted?: boolean } = {}) {
  let q = db.selectFrom("lumber_measurements").selectAll().where("id", "=", id).where("organization_id", "=", ctx.organizationId);
  if (!opts.includeDeleted) q = q.where("deleted_at", "is", null);
  return q.executeTakeFirst();
}

/** Every plank of the measurement, removed ones included (is_deleted), in creation order. */
export async function getPlanks(db: Executor, ctx: Ctx, measurementId: number) {
  return db
    .selectFrom("planks")
    .select(["id", "x", "y", "width", "height", "is_deleted", "modified_at"])
    .where("lumber_measurement_id", "=", measurementId)
    .where("organization_id", "=", ctx.organizationId)
    .orderBy("id")
    .execute();
}

export async function getLumberProductSize(db: Executor, ctx: Ctx, productId: number | null): Promise<ProductSize | null> {
  if (productId === null) return null;
  const p = await db
    .selectFrom("lumber_products")
    .select(["id", "name", "plank_length", "plank_width", "plank_height"])
    .where("id", "=", productId)
    .where("organization_id", "=", ctx.organizationId)
    .executeTakeFirst();
  return p ?? null;
}

/**
 * Plank count and volume (m³) of a measurement's planks. Without a product there is no plank
 * size: the volume is 0 and volumeComputed says so, for the API and the screen to show.
 */
export function lumberTotals(planks: ReadonlyArray<{ x: number; y: number; width: number; height: number; is_deleted: boolean }>, product: ProductSize | null) {
  const rects: PlankRect[] = planks.map((p) => ({ x: p.x, y: p.y, width: p.width, height: p.height, isDeleted: p.is_deleted }));
  const count = plankCount(rects);
  const volume = product
    ? lumberMeasurementVolumeM3(rects, { lengthMm: product.plank_length, widthMm: product.plank_width, heightMm: product.plank_height })
    : 0;
  return { plankCount: count, volume, volumeComputed: product !== null };
}

/** Whether the measurement's storage may be edited by the caller (false for a missing storage). */
export async function canEditLumber(db: Executor, ctx: Pick<AuthContext, "roles" | "organizationId">, m: Pick<LumberMeasurement, "storage_id">) {
  const storage = await getStorageRow(db, ctx, m.storage_id);
  return storage ? canEdit(ctx, storage) : false;
}

// Half a pixel of slack: an editor rounding a plank at the photo's edge must not be refused.
const EDGE_SLACK = 0.5;

/**
 * PATCH /lumber_measurements/{id}: planks with an id are moved or resized, planks without one
 * are added, planks_removed are marked deleted; each touched plank is stamped modified_at. Then
 * the plank count and the volume are recomputed. All input is checked before anything is
 * written: any error answers 422 with every field's errors and changes nothing. A plank both
 * changed and removed ends removed.
 */
export async function patchLumberMeasurement(db: DB, ctx: AuthContext, id: number, patch: LumberPatch) {
  return db.transaction().execute(async (trx) => {
    const m = await trx
      .selectFrom("lumber_measurements")
      .selectAll()
      .where("id", "=", id)
      .where("organization_id", "=", ctx.organizationId)
      .where("deleted_at", "is", null)
      .forUpdate()
      .executeTakeFirst();
    if (!m) throw new NotFoundError();
    await requireEditable(trx, ctx, m);

    const planks = await getPlanks(trx, ctx, id);
    const live = new Map(planks.filter((p) => !p.is_deleted).map((p) => [p.id, p]));
    const known = new Set(planks.map((p) => p.id));
    const inside = (r: { x: number; y: number; width: number; height: number }) =>
      !m.photo_width || !m.photo_height || (r.x + r.width <= m.photo_width + EDGE_SLACK && r.y + r.height <= m.photo_height + EDGE_SLACK);

    const errors: Record<string, string[]> = {};
    // Changed planks by id, later items over earlier ones; each the whole rectangle after the change.
    const moved = new Map<number, { id: number; x: number; y: number; width: number; height: number }>();
    const added: Array<{ x: number; y: number; width: number; height: number }> = [];
    (patch.planks ?? []).forEach((change, i) => {
      if (change.id !== undefined) {
        const current = moved.get(change.id) ?? live.get(change.id);
        if (!current) {
          errors[`planks.${i}.id`] = ["timber:errors.unknown"];
          return;
        }
        const next = { id: change.id, x: change.x ?? current.x, y: change.y ?? current.y, width: change.width ?? current.width, height: change.height ?? current.height };
        if (!inside(next)) errors[`planks.${i}`] = ["timber:errors.plankOutsidePhoto"];
        else if (change.x !== undefined || change.y !== undefined || change.width !== undefined || change.height !== undefined) moved.set(change.id, next);
        return;
      }
      if (!isNewPlankComplete(change)) {
        errors[`planks.${i}`] = ["timber:errors.plankNeedsXYWH"];
        return;
      }
      const rect = { x: change.x!, y: change.y!, width: change.width!, height: change.height! };
      if (!inside(rect)) errors[`planks.${i}`] = ["timber:errors.plankOutsidePhoto"];
      else added.push(rect);
    });
    const removed = new Set(patch.planks_removed ?? []);
    (patch.planks_removed ?? []).forEach((plankId, i) => {
      if (!known.has(plankId)) errors[`planks_removed.${i}`] = ["timber:errors.unknown"];
    });
    if (Object.keys(errors).length) throw new TimberValidationError(errors);

    const now = new Date();
    const changed = [...moved.values()].filter((p) => !removed.has(p.id));
    // One statement per 1,000 planks: a package of 2,000 planks must not take 2,000 round trips.
    for (let i = 0; i < changed.length; i += 1000) {
      const chunk = changed.slice(i, i + 1000);
      const cases = (column: "x" | "y" | "width" | "height") =>
        sql`CASE id ${sql.join(
          chunk.map((p) => sql`WHEN ${p.id} THEN ${p[column]}`),
          sql` `,
        )} END`;
      await sql`UPDATE planks SET x = ${cases("x")}, y = ${cases("y")}, width = ${cases("width")}, height = ${cases("height")}, modified_at = ${now}
        WHERE lumber_measurement_id = ${id} AND organization_id = ${ctx.organizationId} AND id IN (${sql.join(chunk.map((p) => p.id))})`.execute(trx);
    }
    for (let i = 0; i < added.length; i += 1000) {
      await trx
        .insertInto("planks")
        .values(added.slice(i, i + 1000).map((p) => ({ organization_id: ctx.organizationId, lumber_measurement_id: id, ...p, modified_at: now })))
        .execute();
    }
    const toRemove = [...removed].filter((plankId) => live.has(plankId));
    if (toRemove.length) {
      await trx
        .updateTable("planks")
        .set({ is_deleted: true, modified_at: now })
        .where("lumber_measurement_id", "=", id)
        .where("organization_id", "=", ctx.organizationId)
        .where("id", "in", toRemove)
        .execute();
    }

    const product = await getLumberProductSize(trx, ctx, m.lumber_product_id);
    const totals = lumberTotals(await getPlanks(trx, ctx, id), product);
    await trx
      .updateTable("lumber_measurements")
      .set({ plank_count: totals.plankCount, volume: totals.volume, updated_at: now })
      .where("id", "=", id)
      .where("organization_id", "=", ctx.organizationId)
      .execute();
    return (await getLumberMeasurementRow(trx, ctx, id))!;
  });
}

/** Ids that are the organisation's live lumber measurements; any other id makes the whole call 404. */
async function ownedLumberMeasurements(db: Executor, ctx: Ctx, ids: number[]) {
  const unique = [...new Set(ids)];
  const rows = await db
    .selectFrom("lumber_measurements")
    .select(["id", "storage_id", "inventory_id"])
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null)
    .where("id", "in", unique)
    .execute();
  if (rows.length !== unique.length) throw new NotFoundError();
  return rows;
}

/** DELETE /lumber_measurements: soft delete, as timber; measurements counted in an inventory stay. */
export async function deleteLumberMeasurements(db: DB, ctx: AuthContext, ids: number[]) {
  return db.transaction().execute(async (trx) => {
    const rows = await ownedLumberMeasurements(trx, ctx, ids);
    const storageIds = [...new Set(rows.map((r) => r.storage_id))];
    const storages = await trx
      .selectFrom("storages")
      .select(["id", "storage_group_id"])
      .where("organization_id", "=", ctx.organizationId)
      .where("id", "in", storageIds)
      .execute();
    if (storages.length !== storageIds.length) throw new NotFoundError();
    for (const s of storages) requireEditor(ctx, s);
    const locked = ids.findIndex((id) => rows.find((r) => r.id === id)!.inventory_id !== null);
    if (locked >= 0) throw new TimberValidationError({ [`measurement_ids.${locked}`]: ["timber:errors.inInventory"] });
    await trx
      .updateTable("lumber_measurements")
      .set({ deleted_at: new Date() })
      .where("organization_id", "=", ctx.organizationId)
      .where("id", "in", rows.map((r) => r.id))
      .execute();
    return rows.length;
  });
}

export function lumberPhotoUrl(id: number) {
  return `/files/lumber_measurements/${id}/photo`;
}

/**
 * POST /lumber_measurements/search: a page (5) of the organisation's live lumber measurements,
 * newest first, optionally of one storage (another organisation's storage is not found) and
 * of the given ids.
 */
export async function searchLumberMeasurements(db: DB, ctx: Ctx, input: { storageId?: number; measurementIds?: number[]; page: number }) {
  if (input.storageId !== undefined && !(await getStorageRow(db, ctx, input.storageId))) throw new NotFoundError();
  let base = db
    .selectFrom("lumber_measurements as lm")
    .leftJoin("lumber_products as p", (join) => join.onRef("p.id", "=", "lm.lumber_product_id").on("p.organization_id", "=", ctx.organizationId))
    .where("lm.organization_id", "=", ctx.organizationId)
    .where("lm.deleted_at", "is", null);
  if (input.storageId !== undefined) base = base.where("lm.storage_id", "=", input.storageId);
  if (input.measurementIds?.length) base = base.where("lm.id", "in", input.measurementIds);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as("c")).executeTakeFirstOrThrow(),
    base
      .select([
        "lm.id",
        "lm.storage_id",
        "lm.lumber_product_id",
        "p.name as lumber_product_name",
        "p.plank_length",
        "lm.plank_count",
        "lm.volume",
        "lm.measurement_type_id",
        "lm.taken_at",
        "lm.inventory_id",
        "lm.photo_key",
      ])
      .orderBy("lm.taken_at", "desc")
      .orderBy("lm.id", "desc")
      .limit(LUMBER_PAGE_SIZE)
      .offset((input.page - 1) * LUMBER_PAGE_SIZE)
      .execute(),
  ]);
  const total = Number(count.c);
  return {
    page: input.page,
    per_page: LUMBER_PAGE_SIZE,
    total_count: total,
    total_pages: Math.max(1, Math.ceil(total / LUMBER_PAGE_SIZE)),
    measurements: rows.map(({ photo_key, ...r }) => ({ ...r, photo: photo_key ? lumberPhotoUrl(r.id) : null })),
  };
}

const EXTRA_FIELDS = ["planks", "logs", "custom_fields", "comment"] as const;

/**
 * GET /lumber_measurements/{id}: the measurement's fields (or the asked subset) plus the asked
 * extras. plank_length is the product's, in millimetres; volume in m³. The spec's "logs" extra
 * of this call means the planks.
 */
export async function serializeLumberMeasurement(db: Executor, ctx: Ctx, m: LumberMeasurement, opts: { fields?: string[]; extra?: string[] } = {}) {
  const product = await getLumberProductSize(db, ctx, m.lumber_product_id);
  const base: Record<string, unknown> = {
    id: m.id,
    storage_id: m.storage_id,
    device_id: m.device_id,
    lumber_product_id: m.lumber_product_id,
    lumber_product_name: product?.name ?? null,
    plank_length: product?.plank_length ?? null,
    plank_width: product?.plank_width ?? null,
    plank_height: product?.plank_height ?? null,
    plank_count: m.plank_count,
    volume: m.volume,
    // "no_product": without a product's plank size the volume cannot be computed (it is 0).
    volume_status: product ? "computed" : "no_product",
    measurement_type_id: m.measurement_type_id,
    taken_at: m.taken_at,
    created_at: m.created_at,
    updated_at: m.updated_at,
    latitude: m.latitude,
    longitude: m.longitude,
    inventory_id: m.inventory_id,
    photo_file_name: m.photo_file_name,
    photo: m.photo_key ? lumberPhotoUrl(m.id) : null,
    photo_width: m.photo_width,
    photo_height: m.photo_height,
  };
  const data: Record<string, unknown> = {};
  if (opts.fields?.length) {
    data.id = m.id;
    for (const f of opts.fields) if (f in base) data[f] = base[f];
  } else Object.assign(data, base);
  const extra = new Set((opts.extra ?? []).filter((e) => (EXTRA_FIELDS as readonly string[]).includes(e)));
  if (extra.has("planks") || extra.has("logs")) {
    data.planks = (await getPlanks(db, ctx, m.id)).map((p) => ({
      id: p.id,
      x: p.x,
      y: p.y,
      width: p.width,
      height: p.height,
      isDeleted: p.is_deleted,
      modified_at: p.modified_at,
      updated: p.modified_at !== null,
    }));
  }
  if (extra.has("custom_fields")) data.custom_fields = m.custom_fields;
  if (extra.has("comment")) data.comment = m.comment;
  return data;
}

/** The stored photo's key: undefined when the measurement is not the organisation's, null without a photo. */
export async function getLumberPhotoKey(db: DB, ctx: Ctx, id: number) {
  const row = await db.selectFrom("lumber_measurements").select("photo_key").where("id", "=", id).where("organization_id", "=", ctx.organizationId).executeTakeFirst();
  return row ? row.photo_key : undefined;
}

/** Stores a lumber photo as uploaded (checked like timber photos) and records its size. */
export async function storeLumberPhoto(db: DB, files: FileStorage, input: { organizationId: number; measurementId: number; data: Buffer; fileName: string }) {
  const info = await inspectPhoto(input.data);
  const ext = info.format === "jpeg" ? "jpg" : info.format;
  const key = `organizations/${input.organizationId}/lumber_measurements/${input.measurementId}/original.${ext}`;
  await files.put(key, input.data);
  await db
    .updateTable("lumber_measurements")
    .set({ photo_key: key, photo_file_name: input.fileName.slice(0, 255), photo_width: info.width, photo_height: info.height, updated_at: new Date() })
    .where("id", "=", input.measurementId)
    .where("organization_id", "=", input.organizationId)
    .execute();
  return { key, ...info };
}

/** The organisation's active custom fields for lumber measurements, to label stored values. */
export async function listLumberCustomFields(db: DB, ctx: Ctx) {
  return db
    .selectFrom("custom_fields")
    .select(["id", "key", "name", "data_type"])
    .where("organization_id", "=", ctx.organizationId)
    .where("source_key", "=", "lumber_measurement")
    .where("archived", "=", false)
    .orderBy("id")
    .execute();
}

export async function getDeviceName(db: DB, ctx: Ctx, deviceId: number | null) {
  if (deviceId === null) return null;
  const d = await db.selectFrom("devices").select(["id", "name"]).where("id", "=", deviceId).where("organization_id", "=", ctx.organizationId).executeTakeFirst();
  return d ?? null;
}
