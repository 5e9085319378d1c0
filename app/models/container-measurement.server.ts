import { sql, type Transaction } from "kysely";
import type { ContainerMeasurement, Database } from "#db/schema";
import { computeContainerMeasurement } from "~/domain/container";
import { containerExists } from "~/models/container.server";
import { actorOf, recordHistory, snapshotMeasurements, snapshotOne } from "~/models/measurement-history.server";
import {
  checkCustomFields,
  openEditableRow,
  ownedMeasurements,
  requireEditorOnStorages,
  softDeleteMeasurements,
  TimberValidationError,
  type DeviceUploadPlug,
} from "~/models/measurement-kind.server";
import { photoUrl, screenPhotoUrl } from "~/models/measurement-photo.server";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import { ConflictError, NotFoundError, ValidationError } from "~/utils/errors";
import {
  ContainerDeviceMeasurementSchema,
  GEOMETRY_KEYS,
  type ContainerBatch,
  type ContainerDeviceMeasurementInput,
  type ContainerMeasurementPatch,
} from "~/utils/schemas/containers";

// Container measurements (docs/decisions/022-containers.md): the fourth measurement kind of
// decision 008. The photo of the log ends through the container's door; logs are circles in
// pixels scaled by the references (metres), each log's JAS scaling diameter and volume computed by
// app/domain/container.ts and kept on the log rows; the measurement keeps its log count and volume
// so containers and bills sum columns. Editing rules, soft delete, custom fields and photos are the
// kind seam's. Its own lock: locked_at (set by the batch lock when the container is sealed)
// refuses changes of logs, references, formula and length (409 locked).

type Ctx = Pick<AuthContext, "organizationId">;
type Executor = DB | Transaction<Database>;

/** The measurement is locked (the container was sealed): 409. */
export class ContainerLockedError extends ConflictError {
  constructor() {
    super("locked", { _: ["containers:errors.locked"] });
  }
}

export async function getContainerMeasurementRow(
  db: Executor,
  ctx: Ctx,
  id: number,
  opts: { includeDeleted?: boolean } = {},
) {
  let q = db
    .selectFrom("container_measurements")
    .selectAll()
    .where("id", "=", id)
    .where("organization_id", "=", ctx.organizationId);
  if (!opts.includeDeleted) q = q.where("deleted_at", "is", null);
  return q.executeTakeFirst();
}

export async function getContainerLogs(db: Executor, ctx: Ctx, measurementId: number) {
  return db
    .selectFrom("container_measurement_logs")
    .selectAll()
    .where("container_measurement_id", "=", measurementId)
    .where("organization_id", "=", ctx.organizationId)
    .orderBy("id")
    .execute();
}

export async function getContainerReferences(db: Executor, ctx: Ctx, measurementId: number) {
  return db
    .selectFrom("container_measurement_references")
    .select(["x1", "y1", "x2", "y2", "size"])
    .where("container_measurement_id", "=", measurementId)
    .where("organization_id", "=", ctx.organizationId)
    .orderBy("id")
    .execute();
}

export interface NewContainerMeasurement {
  storage_id: number;
  container_id?: number | null;
  taken_at: Date;
  measured_at?: Date | null;
  device_id?: number | null;
  client_id?: string | null;
  measurement_type_id?: number;
  shipment_number?: string | null;
  latitude?: number | null;
  longitude?: number | null;
  wood_type_id?: number | null;
  wood_quality_id?: number | null;
  assortment_id?: number | null;
  log_length: number | null;
  comment?: string | null;
  custom_fields?: string;
  locked_at?: Date | null;
  logs: Array<{ x: number; y: number; r: number; isDeleted?: boolean }>;
  references: Array<{ x1: number; y1: number; x2: number; y2: number; size: number }>;
}

/** Inserts a container measurement with its logs and references; JAS figures computed here. */
export async function insertContainerMeasurement(trx: Executor, ctx: Ctx, input: NewContainerMeasurement) {
  const { logs, references, ...fields } = input;
  const computed = computeContainerMeasurement(logs, { references, logLengthM: input.log_length });
  const r = await trx
    .insertInto("container_measurements")
    .values({
      ...fields,
      organization_id: ctx.organizationId,
      volume_formula: "jas",
      logs_count: computed.logCount,
      volume: computed.volumeM3,
    })
    .executeTakeFirstOrThrow();
  const id = Number(r.insertId);
  for (let i = 0; i < computed.logs.length; i += 1000) {
    await trx
      .insertInto("container_measurement_logs")
      .values(
        computed.logs.slice(i, i + 1000).map((l) => ({
          organization_id: ctx.organizationId,
          container_measurement_id: id,
          x: l.x,
          y: l.y,
          r: l.r,
          d: l.d,
          jas_d: l.jasD,
          v: l.v,
          is_deleted: l.isDeleted ?? false,
        })),
      )
      .execute();
  }
  if (references.length)
    await trx
      .insertInto("container_measurement_references")
      .values(references.map((ref) => ({ ...ref, organization_id: ctx.organizationId, container_measurement_id: id })))
      .execute();
  return id;
}

/**
 * Recomputes every log's and the measurement's JAS figures from its logs (read here), its
 * references as stored (read by the caller) and its length.
 */
async function recompute(
  trx: Executor,
  ctx: Ctx,
  id: number,
  logLength: number | null,
  references: Awaited<ReturnType<typeof getContainerReferences>>,
) {
  const logs = await getContainerLogs(trx, ctx, id);
  const computed = computeContainerMeasurement(
    logs.map((l) => ({ id: l.id, x: l.x, y: l.y, r: l.r, isDeleted: Boolean(l.is_deleted) })),
    { references, logLengthM: logLength },
  );
  for (let i = 0; i < computed.logs.length; i += 1000) {
    const rows = computed.logs.slice(i, i + 1000);
    // One statement per thousand logs, not one per log.
    await sql`UPDATE container_measurement_logs SET
      d = CASE id ${sql.join(
        rows.map((r) => sql`WHEN ${r.id} THEN ${r.d}`),
        sql` `,
      )} END,
      jas_d = CASE id ${sql.join(
        rows.map((r) => sql`WHEN ${r.id} THEN ${r.jasD}`),
        sql` `,
      )} END,
      v = CASE id ${sql.join(
        rows.map((r) => sql`WHEN ${r.id} THEN ${r.v}`),
        sql` `,
      )} END
      WHERE container_measurement_id = ${id} AND id IN (${sql.join(rows.map((r) => r.id))})`.execute(trx);
  }
  return { logs_count: computed.logCount, volume: computed.volumeM3 };
}

function shownName(m: Pick<ContainerMeasurement, "id">) {
  return `#${m.id}`;
}

/** The API's container measurement (the spec's entity); logs and references when asked. */
export async function serializeContainerMeasurement(
  db: Executor,
  ctx: Ctx,
  m: ContainerMeasurement,
  extra: { logs?: boolean; references?: boolean } = {},
) {
  const container = m.container_id
    ? await db
        .selectFrom("containers")
        .select(["id", "name", "seal_number", "width", "height", "bill_of_lading_id"])
        .where("id", "=", m.container_id)
        .where("organization_id", "=", ctx.organizationId)
        .executeTakeFirst()
    : undefined;
  const out: Record<string, unknown> = {
    id: m.id,
    container_id: m.container_id,
    container: container ?? null,
    storage_id: m.storage_id,
    shown_name: shownName(m),
    taken_at: m.taken_at,
    measured_at: m.measured_at,
    created_at: m.created_at,
    measurement_type_id: m.measurement_type_id,
    wood_type_id: m.wood_type_id,
    wood_quality_id: m.wood_quality_id,
    wood_characteristic_id: m.assortment_id,
    shipment_number: m.shipment_number,
    log_length: m.log_length,
    logs_count: m.logs_count,
    volume: m.volume,
    volume_formula: m.volume_formula,
    coefficient: m.coefficient,
    locked_at: m.locked_at,
    comment: m.comment,
    device_id: m.device_id,
    custom_fields: m.custom_fields,
    photo: screenPhotoUrl("container", m),
    photo_thumbnail: m.photo_thumbnail_key ? photoUrl("container", m.id, "thumbnail") : null,
    photo_status: m.photo_status,
    photo_width: m.photo_width,
    photo_height: m.photo_height,
  };
  if (extra.logs)
    out.logs = (await getContainerLogs(db, ctx, m.id)).map((l) => ({
      id: l.id,
      x: l.x,
      y: l.y,
      r: l.r,
      d: l.d,
      jas_d: l.jas_d,
      v: l.v,
      isDeleted: Boolean(l.is_deleted),
      modified_at: l.modified_at,
    }));
  if (extra.references) out.references = await getContainerReferences(db, ctx, m.id);
  return out;
}

/** GET /containers/measurements?container_id=: the container's live measurements, newest first. */
export async function listContainerMeasurements(db: Executor, ctx: Ctx, containerId: number) {
  if (!(await containerExists(db, ctx.organizationId, containerId))) throw new NotFoundError();
  return db
    .selectFrom("container_measurements")
    .selectAll()
    .where("organization_id", "=", ctx.organizationId)
    .where("container_id", "=", containerId)
    .where("deleted_at", "is", null)
    .orderBy("taken_at", "desc")
    .orderBy("id", "desc")
    .execute();
}

/** Live container measurements not in any container yet (the cards to assign), newest first. */
export async function unassignedContainerMeasurements(db: Executor, ctx: Ctx, limit = 60) {
  return db
    .selectFrom("container_measurements")
    .selectAll()
    .where("organization_id", "=", ctx.organizationId)
    .where("container_id", "is", null)
    .where("deleted_at", "is", null)
    .orderBy("taken_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

/**
 * PATCH /containers/measurements/{id}: comment, custom fields (required ones must be filled) and
 * locked_at at any time; logs, logs_removed, references, volume_formula and log_length only while
 * unlocked (409 locked). Every input is checked before anything is written.
 */
export async function patchContainerMeasurement(
  db: DB,
  ctx: AuthContext,
  id: number,
  patch: ContainerMeasurementPatch,
) {
  return db.transaction().execute(async (trx) => {
    const m = await openEditableRow(trx, ctx, "container", id);
    const geometry = GEOMETRY_KEYS.some((k) => patch[k] !== undefined);
    // A lock set in this same PATCH does not let the geometry through either.
    if (geometry && m.locked_at !== null) throw new ContainerLockedError();
    const errors: Record<string, string[]> = {};
    let customFields: Record<string, unknown> | undefined;
    if (patch.custom_fields) {
      const cf = await checkCustomFields(
        trx,
        ctx,
        "container",
        { ...(m.custom_fields ?? {}), ...patch.custom_fields },
        { requireAll: true },
      );
      Object.assign(errors, cf.errors);
      customFields = cf.clean;
    }
    const logs = geometry ? await getContainerLogs(trx, ctx, id) : [];
    const byId = new Map(logs.map((l) => [l.id, l]));
    (patch.logs ?? []).forEach((c, i) => {
      if (c.id !== undefined && !byId.has(c.id)) errors[`logs.${i}.id`] = ["timber:errors.unknown"];
      if (c.id === undefined && (c.x === undefined || c.y === undefined || c.r === undefined))
        errors[`logs.${i}`] = ["timber:errors.logNeedsXYR"];
    });
    (patch.logs_removed ?? []).forEach((logId, i) => {
      if (!byId.has(logId)) errors[`logs_removed.${i}`] = ["timber:errors.unknown"];
    });
    if (Object.keys(errors).length) throw new TimberValidationError(errors);
    // The measurement's history (decision 024), its logs and references only when they change:
    // the state before is the row opened above and the logs read above (nothing written yet).
    let references = geometry ? await getContainerReferences(trx, ctx, id) : [];
    const before = await snapshotOne(trx, ctx, "container", id, {
      row: m,
      children: geometry ? { logs, references } : false,
    });

    const now = new Date();
    if (patch.references) {
      await trx
        .deleteFrom("container_measurement_references")
        .where("container_measurement_id", "=", id)
        .where("organization_id", "=", ctx.organizationId)
        .execute();
      if (patch.references.length)
        await trx
          .insertInto("container_measurement_references")
          .values(
            patch.references.map((r) => ({ ...r, organization_id: ctx.organizationId, container_measurement_id: id })),
          )
          .execute();
    }
    for (const c of patch.logs ?? []) {
      if (c.id === undefined) {
        await trx
          .insertInto("container_measurement_logs")
          .values({
            organization_id: ctx.organizationId,
            container_measurement_id: id,
            x: c.x!,
            y: c.y!,
            r: c.r!,
            d: 0,
            v: 0,
            is_deleted: c.isDeleted ?? false,
            modified_at: now,
          })
          .execute();
        continue;
      }
      const set: Record<string, unknown> = { modified_at: now };
      if (c.x !== undefined) set.x = c.x;
      if (c.y !== undefined) set.y = c.y;
      if (c.r !== undefined) set.r = c.r;
      if (c.isDeleted !== undefined) set.is_deleted = c.isDeleted;
      await trx
        .updateTable("container_measurement_logs")
        .set(set)
        .where("id", "=", c.id)
        .where("container_measurement_id", "=", id)
        .execute();
    }
    if (patch.logs_removed?.length)
      await trx
        .updateTable("container_measurement_logs")
        .set({ is_deleted: true, modified_at: now })
        .where("container_measurement_id", "=", id)
        .where("id", "in", patch.logs_removed)
        .execute();

    const set: Record<string, unknown> = { updated_at: now };
    if (patch.comment !== undefined) set.comment = patch.comment;
    if (patch.locked_at !== undefined) set.locked_at = patch.locked_at;
    if (patch.volume_formula !== undefined) set.volume_formula = patch.volume_formula;
    if (patch.log_length !== undefined) set.log_length = patch.log_length;
    if (customFields) set.custom_fields = JSON.stringify(customFields);
    if (geometry) {
      if (patch.references) references = await getContainerReferences(trx, ctx, id);
      Object.assign(set, await recompute(trx, ctx, id, patch.log_length ?? m.log_length, references));
    }
    await trx
      .updateTable("container_measurements")
      .set(set)
      .where("id", "=", id)
      .where("organization_id", "=", ctx.organizationId)
      .execute();
    // A PATCH of the lock alone is a lock or an unlock; anything else an edit (with the lock's field).
    const lockOnly = Object.keys(patch).every((k) => k === "locked_at" || patch[k as keyof typeof patch] === undefined);
    const action = lockOnly && patch.locked_at !== undefined ? (patch.locked_at ? "locked" : "unlocked") : "edited";
    // The state after: the row read back for the answer, the references as stored; the logs are
    // read (their diameters and volumes were just computed in SQL).
    const stored = (await getContainerMeasurementRow(trx, ctx, id))!;
    const after = await snapshotOne(trx, ctx, "container", id, {
      row: stored,
      children: geometry ? { references } : false,
    });
    await recordHistory(trx, ctx, actorOf(ctx), "container", action, before, undefined, after);
    return stored;
  });
}

/**
 * PATCH /containers/measurements/batch_actions: assign to a container (or out of one with null),
 * lock (or unlock with null), or delete, all or nothing. Another organisation's measurement or
 * container is 404 / 422 as if unknown; a storage the caller may not edit in 403; a measurement
 * in an inventory, or a locked one asked to move or be deleted, 422 on its place in the list.
 * Locking a selection of which some are locked already keeps their lock time.
 */
export async function batchContainerMeasurements(db: DB, ctx: AuthContext, batch: ContainerBatch) {
  if (batch.delete) {
    // Locked ones first: soft delete knows only the kind's rules.
    const rows = await lockedAmong(db, ctx, batch.measurement_ids);
    const locked = batch.measurement_ids.findIndex((mid) => rows.has(mid));
    if (locked >= 0) throw new ValidationError({ [`measurement_ids.${locked}`]: ["containers:errors.locked"] });
    return { affected: await softDeleteMeasurements(db, ctx, "container", batch.measurement_ids) };
  }
  return db.transaction().execute(async (trx) => {
    const rows = await ownedMeasurements(trx, ctx, "container", batch.measurement_ids);
    await requireEditorOnStorages(
      trx,
      ctx,
      rows.map((r) => r.storage_id),
    );
    const inInventory = batch.measurement_ids.findIndex((mid) => rows.find((r) => r.id === mid)!.inventory_id !== null);
    if (inInventory >= 0)
      throw new ValidationError({ [`measurement_ids.${inInventory}`]: ["timber:errors.inInventory"] });
    const now = new Date();
    const ids = rows.map((r) => r.id);
    // The history (decision 024): only the rows (a bulk change does not touch logs); a measurement
    // whose row does not change (locking one already locked) gets no line.
    const before = await snapshotMeasurements(trx, ctx, "container", ids, { children: false });
    if (batch.container_id !== undefined) {
      if (batch.container_id !== null && !(await containerExists(trx, ctx.organizationId, batch.container_id)))
        throw new ValidationError({ container_id: ["containers:errors.unknown"] });
      const locked = await lockedAmong(trx, ctx, batch.measurement_ids);
      const at = batch.measurement_ids.findIndex((mid) => locked.has(mid));
      if (at >= 0) throw new ValidationError({ [`measurement_ids.${at}`]: ["containers:errors.locked"] });
      await trx
        .updateTable("container_measurements")
        .set({ container_id: batch.container_id, updated_at: now })
        .where("organization_id", "=", ctx.organizationId)
        .where("id", "in", ids)
        .execute();
      await recordHistory(trx, ctx, actorOf(ctx), "container", "moved", before);
      return { affected: ids.length };
    }
    if (batch.locked_at === null) {
      await trx
        .updateTable("container_measurements")
        .set({ locked_at: null, updated_at: now })
        .where("organization_id", "=", ctx.organizationId)
        .where("id", "in", ids)
        .execute();
    } else {
      // Only those not locked yet change (and get a history line): the others keep their lock time.
      await trx
        .updateTable("container_measurements")
        .set({ locked_at: batch.locked_at!, updated_at: now })
        .where("organization_id", "=", ctx.organizationId)
        .where("id", "in", ids)
        .where("locked_at", "is", null)
        .execute();
    }
    await recordHistory(trx, ctx, actorOf(ctx), "container", batch.locked_at === null ? "unlocked" : "locked", before);
    return { affected: ids.length };
  });
}

async function lockedAmong(db: Executor, ctx: Ctx, ids: number[]) {
  const rows = await db
    .selectFrom("container_measurements")
    .select("id")
    .where("organization_id", "=", ctx.organizationId)
    .where("id", "in", [...new Set(ids)])
    .where("deleted_at", "is", null)
    .where("locked_at", "is not", null)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** The organisation's active custom fields of container measurements. */
export async function listContainerCustomFields(db: Executor, ctx: Ctx) {
  return db
    .selectFrom("custom_fields")
    .select(["id", "key", "name", "data_type", "required"])
    .where("organization_id", "=", ctx.organizationId)
    .where("source_key", "=", "container_measurement")
    .where("archived", "=", false)
    .orderBy("id")
    .execute();
}

async function knownLookups(
  db: Executor,
  ctx: Ctx,
  table: "wood_types" | "wood_qualities" | "assortments",
  id: number | null | undefined,
) {
  if (!id) return true;
  const row = await db
    .selectFrom(table)
    .select("id")
    .where("id", "=", id)
    .where((eb) => eb.or([eb("organization_id", "is", null), eb("organization_id", "=", ctx.organizationId)]))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The container measurement's plug into the device upload envelope: the logs and references of
 * the photo, the log length, optionally the container; JAS figures on insert.
 */
export const containerDeviceUpload: DeviceUploadPlug<
  ContainerDeviceMeasurementInput,
  { customFields: Record<string, unknown> }
> = {
  kind: "container",
  schema: ContainerDeviceMeasurementSchema,

  async prepare(db, ctx, input) {
    const custom = await checkCustomFields(db, ctx, "container", input.custom_fields, { requireAll: false });
    const errors: Record<string, string[]> = { ...custom.errors };
    if (!(await knownLookups(db, ctx, "wood_types", input.wood_type_id)))
      errors.wood_type_id = ["timber:errors.unknown"];
    if (!(await knownLookups(db, ctx, "wood_qualities", input.wood_quality_id)))
      errors.wood_quality_id = ["timber:errors.unknown"];
    if (!(await knownLookups(db, ctx, "assortments", input.wood_characteristic_id)))
      errors.wood_characteristic_id = ["timber:errors.unknown"];
    if (input.container_id && !(await containerExists(db, ctx.organizationId, input.container_id)))
      errors.container_id = ["containers:errors.unknown"];
    if (Object.keys(errors).length) throw new TimberValidationError(errors);
    return { customFields: custom.clean };
  },

  async insert(trx, ctx, device, input, { customFields }) {
    return insertContainerMeasurement(trx, ctx, {
      storage_id: input.storage_id,
      container_id: input.container_id ?? null,
      taken_at: input.taken_at,
      measured_at: input.measured_at ?? new Date(),
      device_id: device.id,
      client_id: input.client_id,
      measurement_type_id: input.measurement_type_id,
      shipment_number: input.shipment_number ?? null,
      latitude: input.latitude ?? null,
      longitude: input.longitude ?? null,
      wood_type_id: input.wood_type_id ?? null,
      wood_quality_id: input.wood_quality_id ?? null,
      assortment_id: input.wood_characteristic_id ?? null,
      log_length: input.log_length,
      comment: input.comment ?? null,
      custom_fields: JSON.stringify(customFields),
      logs: input.logs,
      references: input.references,
    });
  },

  async answer(db, ctx, id) {
    const m = (await getContainerMeasurementRow(db, ctx, id, { includeDeleted: true }))!;
    return { measurement: await serializeContainerMeasurement(db, ctx, m, { logs: true }) };
  },
};
