import { sql, type Transaction } from "kysely";
import type { Database, LumberMeasurement } from "#db/schema";
import { lumberMeasurementVolumeM3, plankCount, type PlankRect } from "~/domain/lumber";
import { actorOf, recordHistory, snapshotOne } from "~/models/measurement-history.server";
import {
  checkCustomFields,
  getStorageRow,
  NotFoundError,
  openEditableRow,
  softDeleteMeasurements,
  TimberValidationError,
  type DeviceUploadPlug,
} from "~/models/measurement-kind.server";
import { photoUrl } from "~/models/measurement-photo.server";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import {
  isNewPlankComplete,
  LumberDeviceMeasurementSchema,
  type LumberDeviceMeasurementInput,
  type LumberPatch,
} from "~/utils/schemas/lumber";

// Lumber measurements: a photo of a package's end with its planks marked as rectangles in image
// pixels. Plank edits recount the planks and recompute the volume on the server, only through
// app/domain/lumber.ts, from the product's plank size (millimetres). Every query is scoped by
// the organisation; another organisation's row is "not found". Editing rights, the inventory
// lock, soft delete, photos and the errors are every measurement kind's
// (measurement-kind.server.ts), so the API answers them the same way.

type Ctx = Pick<AuthContext, "organizationId">;
type Executor = DB | Transaction<Database>;

export const LUMBER_PAGE_SIZE = 5;

export type ProductSize = { id: number; name: string; plank_length: number; plank_width: number; plank_height: number };

/** One lumber measurement of the organisation (deleted ones too when asked), or undefined. */
export async function getLumberMeasurementRow(
  db: Executor,
  ctx: Ctx,
  id: number,
  opts: { includeDeleted?: boolean } = {},
) {
  let q = db
    .selectFrom("lumber_measurements")
    .selectAll()
    .where("id", "=", id)
    .where("organization_id", "=", ctx.organizationId);
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

export async function getLumberProductSize(
  db: Executor,
  ctx: Ctx,
  productId: number | null,
): Promise<ProductSize | null> {
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
export function lumberTotals(
  planks: ReadonlyArray<{ x: number; y: number; width: number; height: number; is_deleted: boolean }>,
  product: ProductSize | null,
) {
  const rects: PlankRect[] = planks.map((p) => ({
    x: p.x,
    y: p.y,
    width: p.width,
    height: p.height,
    isDeleted: p.is_deleted,
  }));
  const count = plankCount(rects);
  const volume = product
    ? lumberMeasurementVolumeM3(rects, {
        lengthMm: product.plank_length,
        widthMm: product.plank_width,
        heightMm: product.plank_height,
      })
    : 0;
  return { plankCount: count, volume, volumeComputed: product !== null };
}

// Half a pixel of slack: an editor rounding a plank at the photo's edge must not be refused.
const EDGE_SLACK = 0.5;

function insidePhoto(
  r: { x: number; y: number; width: number; height: number },
  photo: { width: number | null; height: number | null },
) {
  return (
    !photo.width ||
    !photo.height ||
    (r.x + r.width <= photo.width + EDGE_SLACK && r.y + r.height <= photo.height + EDGE_SLACK)
  );
}

/**
 * PATCH /lumber_measurements/{id}: planks with an id are moved or resized, planks without one
 * are added, planks_removed are marked deleted; each touched plank is stamped modified_at. Then
 * the plank count and the volume are recomputed. All input is checked before anything is
 * written: any error answers 422 with every field's errors and changes nothing. A plank both
 * changed and removed ends removed.
 */
export async function patchLumberMeasurement(db: DB, ctx: AuthContext, id: number, patch: LumberPatch) {
  return db.transaction().execute(async (trx) => {
    const m = await openEditableRow(trx, ctx, "lumber", id);
    const planks = await getPlanks(trx, ctx, id);
    // The history (decision 024): the state before is the row opened and the planks just read.
    const before = await snapshotOne(trx, ctx, "lumber", id, { row: m, children: { planks } });
    const live = new Map(planks.filter((p) => !p.is_deleted).map((p) => [p.id, p]));
    const known = new Set(planks.map((p) => p.id));
    const inside = (r: { x: number; y: number; width: number; height: number }) =>
      insidePhoto(r, { width: m.photo_width, height: m.photo_height });

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
        const next = {
          id: change.id,
          x: change.x ?? current.x,
          y: change.y ?? current.y,
          width: change.width ?? current.width,
          height: change.height ?? current.height,
        };
        if (!inside(next)) errors[`planks.${i}`] = ["timber:errors.plankOutsidePhoto"];
        else if (
          change.x !== undefined ||
          change.y !== undefined ||
          change.width !== undefined ||
          change.height !== undefined
        )
          moved.set(change.id, next);
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
        WHERE lumber_measurement_id = ${id} AND organization_id = ${ctx.organizationId} AND id IN (${sql.join(chunk.map((p) => p.id))})`.execute(
        trx,
      );
    }
    for (let i = 0; i < added.length; i += 1000) {
      await trx
        .insertInto("planks")
        .values(
          added
            .slice(i, i + 1000)
            .map((p) => ({ organization_id: ctx.organizationId, lumber_measurement_id: id, ...p, modified_at: now })),
        )
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
    const planksAfter = await getPlanks(trx, ctx, id);
    const totals = lumberTotals(planksAfter, product);
    await trx
      .updateTable("lumber_measurements")
      .set({ plank_count: totals.plankCount, volume: totals.volume, updated_at: now })
      .where("id", "=", id)
      .where("organization_id", "=", ctx.organizationId)
      .execute();
    // The state after: the row read back for the answer and the planks the totals were computed from.
    const stored = (await getLumberMeasurementRow(trx, ctx, id))!;
    const after = await snapshotOne(trx, ctx, "lumber", id, { row: stored, children: { planks: planksAfter } });
    await recordHistory(trx, ctx, actorOf(ctx), "lumber", "edited", before, undefined, after);
    return stored;
  });
}

type LumberUploadRows = {
  product: ProductSize | null;
  customFields: Record<string, unknown>;
  totals: ReturnType<typeof lumberTotals>;
};

/**
 * Lumber measurements uploaded by the mobile app (POST /api/device/lumber_measurements): the
 * package-end photo, its planks and the product, plugged into the upload envelope of every kind
 * (services/measurement-uploads.server.ts). The plank count and volume come from app/domain.
 */
export const lumberDeviceUpload: DeviceUploadPlug<LumberDeviceMeasurementInput, LumberUploadRows> = {
  kind: "lumber",
  schema: LumberDeviceMeasurementSchema,

  async prepare(db, ctx, input, photo) {
    const product = await getLumberProductSize(db, ctx, input.lumber_product_id ?? null);
    const custom = await checkCustomFields(db, ctx, "lumber", input.custom_fields, { requireAll: false });
    const errors: Record<string, string[]> = { ...custom.errors };
    if (input.lumber_product_id && !product) errors.lumber_product_id = ["timber:errors.unknown"];
    input.planks.forEach((plank, i) => {
      if (!insidePhoto(plank, photo)) errors[`planks.${i}`] = ["timber:errors.plankOutsidePhoto"];
    });
    if (Object.keys(errors).length) throw new TimberValidationError(errors);
    const totals = lumberTotals(
      input.planks.map((p) => ({ ...p, is_deleted: false })),
      product,
    );
    return { product, customFields: custom.clean, totals };
  },

  async insert(trx, ctx, device, input, { product, customFields, totals }) {
    const r = await trx
      .insertInto("lumber_measurements")
      .values({
        organization_id: ctx.organizationId,
        storage_id: input.storage_id,
        device_id: device.id,
        client_id: input.client_id,
        lumber_product_id: product?.id ?? null,
        measurement_type_id: input.measurement_type_id,
        taken_at: input.taken_at,
        latitude: input.latitude ?? null,
        longitude: input.longitude ?? null,
        plank_count: totals.plankCount,
        volume: totals.volume,
        comment: input.comment ?? null,
        custom_fields: JSON.stringify(customFields),
      })
      .executeTakeFirstOrThrow();
    const id = Number(r.insertId);
    for (let i = 0; i < input.planks.length; i += 1000) {
      await trx
        .insertInto("planks")
        .values(
          input.planks
            .slice(i, i + 1000)
            .map((p) => ({ organization_id: ctx.organizationId, lumber_measurement_id: id, ...p })),
        )
        .execute();
    }
    return id;
  },

  async answer(db, ctx, id) {
    const m = (await getLumberMeasurementRow(db, ctx, id, { includeDeleted: true }))!;
    return { measurement: await serializeLumberMeasurement(db, ctx, m, { extra: ["planks"] }) };
  },
};

/** DELETE /lumber_measurements: soft delete, as every kind; measurements counted in an inventory stay. */
export async function deleteLumberMeasurements(db: DB, ctx: AuthContext, ids: number[]) {
  return softDeleteMeasurements(db, ctx, "lumber", ids);
}

/** The original photo's URL the lumber API answers as `photo` (the renditions are at photoUrl's). */
export function lumberPhotoUrl(id: number) {
  return `/files/lumber_measurements/${id}/photo`;
}

/**
 * POST /lumber_measurements/search: a page (5) of the organisation's live lumber measurements,
 * newest first, optionally of one storage (another organisation's storage is not found) and
 * of the given ids.
 */
export async function searchLumberMeasurements(
  db: DB,
  ctx: Ctx,
  input: { storageId?: number; measurementIds?: number[]; page: number },
) {
  if (input.storageId !== undefined && !(await getStorageRow(db, ctx, input.storageId))) throw new NotFoundError();
  let base = db
    .selectFrom("lumber_measurements as lm")
    .leftJoin("lumber_products as p", (join) =>
      join.onRef("p.id", "=", "lm.lumber_product_id").on("p.organization_id", "=", ctx.organizationId),
    )
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
        "lm.photo_thumbnail_key",
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
    measurements: rows.map(({ photo_key, photo_thumbnail_key, ...r }) => ({
      ...r,
      photo: photo_key ? lumberPhotoUrl(r.id) : null,
      photo_thumbnail: photo_thumbnail_key ? photoUrl("lumber", r.id, "thumbnail") : null,
    })),
  };
}

const EXTRA_FIELDS = ["planks", "logs", "custom_fields", "comment"] as const;

/**
 * GET /lumber_measurements/{id}: the measurement's fields (or the asked subset) plus the asked
 * extras. plank_length is the product's, in millimetres; volume in m³. The spec's "logs" extra
 * of this call means the planks.
 */
export async function serializeLumberMeasurement(
  db: Executor,
  ctx: Ctx,
  m: LumberMeasurement,
  opts: { fields?: string[]; extra?: string[] } = {},
) {
  const product = await getLumberProductSize(db, ctx, m.lumber_product_id);
  const base: Record<string, unknown> = {
    id: m.id,
    client_id: m.client_id,
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
    photo_optimized: m.photo_optimized_key ? photoUrl("lumber", m.id, "optimized") : null,
    photo_popup: m.photo_popup_key ? photoUrl("lumber", m.id, "popup") : null,
    photo_thumbnail: m.photo_thumbnail_key ? photoUrl("lumber", m.id, "thumbnail") : null,
    photo_status: m.photo_status,
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
  const d = await db
    .selectFrom("devices")
    .select(["id", "name"])
    .where("id", "=", deviceId)
    .where("organization_id", "=", ctx.organizationId)
    .executeTakeFirst();
  return d ?? null;
}
