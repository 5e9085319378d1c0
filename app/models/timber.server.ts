import { sql } from "kysely";
import type { Database, Measurement } from "#db/schema";
import { DomainInputError, summarizeMeasurement, type LogFormula, type Species } from "~/domain";
import { computeTimberMeasurement } from "~/domain/timber-measurement";
import { actorOf, recordHistory, snapshotOne, withHistory } from "~/models/measurement-history.server";
import {
  canEdit,
  checkCustomFields,
  fail,
  getStorageRow,
  openEditableRow,
  ownedMeasurements,
  requireEditor,
  requireEditorOnStorages,
  softDeleteMeasurements,
  TimberValidationError,
  type DeviceUploadPlug,
} from "~/models/measurement-kind.server";
import { publicTokensOf } from "~/models/public-link.server";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import { DeviceMeasurementSchema, type DeviceMeasurementInput, type MeasurementPatch } from "~/utils/schemas/timber";
import { BUILTIN_WOOD_TYPES } from "../../db/builtin-lookups";
import type { Transaction } from "kysely";

// Timber measurements: the device upload plug and the row of a staff photo upload, the server's
// recomputation of diameters and volumes (only through app/domain), edits, manual measurements,
// moves and soft deletes. What every measurement kind shares (editing rules, soft delete, custom
// fields, errors) is measurement-kind.server.ts's. Every query is scoped by the organisation;
// another organisation's row is "not found".
//
// Units kept here: log.d in cm, log.v in the formula's native unit (m³, fbm or hoppus m³, as the
// domain's summary expects), measurement.volume always in m³ so storages can sum it.

type Ctx = Pick<AuthContext, "organizationId">;
type Executor = DB | Transaction<Database>;

export function speciesOf(woodTypeId: number | null | undefined): Species | undefined {
  return BUILTIN_WOOD_TYPES.find((w) => w.id === woodTypeId)?.species;
}

/** Lookup ids must be built-in or the organisation's own; errors collected per field. */
async function checkLookups(
  db: Executor,
  ctx: Ctx,
  input: {
    wood_type_id?: number | null;
    wood_quality_id?: number | null;
    wood_characteristic_id?: number | null;
    storage_id?: number;
  },
  logs: Array<{ cull_id?: number | null; wood_characteristic_id?: number | null }> = [],
) {
  const errors: Record<string, string[]> = {};
  const own = (table: "wood_types" | "wood_qualities" | "assortments" | "culls", ids: number[]) =>
    ids.length === 0
      ? Promise.resolve(new Set<number>())
      : db
          .selectFrom(table)
          .select("id")
          .where("id", "in", ids)
          .where((eb) => eb.or([eb("organization_id", "is", null), eb("organization_id", "=", ctx.organizationId)]))
          .execute()
          .then((rows) => new Set(rows.map((r) => r.id)));
  const assortmentIds = [input.wood_characteristic_id, ...logs.map((l) => l.wood_characteristic_id)].filter(
    (x): x is number => typeof x === "number",
  );
  const cullIds = logs.map((l) => l.cull_id).filter((x): x is number => typeof x === "number");
  const [types, qualities, assortments, culls] = await Promise.all([
    own("wood_types", input.wood_type_id ? [input.wood_type_id] : []),
    own("wood_qualities", input.wood_quality_id ? [input.wood_quality_id] : []),
    own("assortments", [...new Set(assortmentIds)]),
    own("culls", [...new Set(cullIds)]),
  ]);
  if (input.wood_type_id && !types.has(input.wood_type_id)) errors.wood_type_id = ["timber:errors.unknown"];
  if (input.wood_quality_id && !qualities.has(input.wood_quality_id))
    errors.wood_quality_id = ["timber:errors.unknown"];
  if (input.wood_characteristic_id && !assortments.has(input.wood_characteristic_id))
    errors.wood_characteristic_id = ["timber:errors.unknown"];
  logs.forEach((l, i) => {
    if (l.wood_characteristic_id && !assortments.has(l.wood_characteristic_id))
      errors[`logs.${i}.wood_characteristic_id`] = ["timber:errors.unknown"];
    if (l.cull_id && !culls.has(l.cull_id)) errors[`logs.${i}.cull_id`] = ["timber:errors.unknown"];
  });
  if (input.storage_id !== undefined) {
    const s = await db
      .selectFrom("storages")
      .select("id")
      .where("id", "=", input.storage_id)
      .where("organization_id", "=", ctx.organizationId)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    if (!s) errors.storage_id = ["timber:errors.unknownStorage"];
  }
  return errors;
}

interface ComputeInput {
  logs: Array<{ x: number; y: number; r: number; isDeleted?: boolean }>;
  references: Array<{ x1: number; y1: number; x2: number; y2: number; size: number }>;
  formula: string;
  logLength: number | null;
  woodTypeId: number | null | undefined;
  measurementArea: Array<{ x: number; y: number }> | null | undefined;
  coefficient: number | null | undefined;
}

/**
 * The stored numbers of a photographed measurement, by the same domain function the editor
 * previews with; an input the formula cannot use is answered as a field error.
 */
export function computeTimber(input: ComputeInput) {
  try {
    const r = computeTimberMeasurement({
      logs: input.logs,
      references: input.references,
      formula: input.formula,
      logLengthM: input.logLength,
      species: speciesOf(input.woodTypeId),
      measurementArea: input.measurementArea,
      coefficient: input.coefficient,
    });
    return r && { logs: r.logs, volume: r.volumeM3, logsCount: r.logsCount, coefficient: r.coefficient };
  } catch (error) {
    if (error instanceof DomainInputError)
      fail(error.input === "species" ? "wood_type_id" : "volume_formula", "timber:errors.cannotCompute");
    throw error;
  }
}

/** The stored numbers of a device upload, computed before anything is written. */
type TimberUploadNumbers = { computed: ReturnType<typeof computeTimber>; customFields: Record<string, unknown> };

/**
 * Timber measurements uploaded by the mobile app (POST /api/device/measurements), plugged into
 * the upload envelope of every kind (services/measurement-uploads.server.ts).
 */
export const timberDeviceUpload: DeviceUploadPlug<DeviceMeasurementInput, TimberUploadNumbers> = {
  kind: "timber",
  schema: DeviceMeasurementSchema,

  async prepare(db, ctx, input) {
    const custom = await checkCustomFields(db, ctx, "timber", input.custom_fields, { requireAll: false });
    const errors = { ...(await checkLookups(db, ctx, input, input.logs)), ...custom.errors };
    if (Object.keys(errors).length) throw new TimberValidationError(errors);
    const computed = computeTimber({
      logs: input.logs,
      references: input.references,
      formula: input.volume_formula,
      logLength: input.log_length,
      woodTypeId: input.wood_type_id,
      measurementArea: input.measurement_area,
      coefficient: input.coefficient,
    });
    return { computed, customFields: custom.clean };
  },

  async insert(trx, ctx, device, input, { computed, customFields }) {
    const r = await trx
      .insertInto("measurements")
      .values({
        organization_id: ctx.organizationId,
        storage_id: input.storage_id,
        device_id: device.id,
        client_id: input.client_id,
        type: input.logs.length === 0 && input.measurement_area ? "contour" : "diameter",
        taken_at: input.taken_at,
        measured_at: new Date(),
        measurement_type_id: input.measurement_type_id,
        latitude: input.latitude ?? null,
        longitude: input.longitude ?? null,
        log_length: input.log_length,
        logs_count: computed?.logsCount ?? 0,
        volume: computed?.volume ?? 0,
        initial_volume: computed?.volume ?? 0,
        coefficient: computed?.coefficient ?? input.coefficient ?? null,
        wood_type_id: input.wood_type_id ?? null,
        wood_quality_id: input.wood_quality_id ?? null,
        assortment_id: input.wood_characteristic_id ?? null,
        volume_formula: input.volume_formula,
        comment: input.comment ?? null,
        metrology: input.metrology ? JSON.stringify(input.metrology) : null,
        shipment_number: input.shipment_number ?? null,
        load_lines: input.load_lines ? JSON.stringify(input.load_lines) : null,
        measurement_area: input.measurement_area ? JSON.stringify(input.measurement_area) : null,
        heights: input.heights ? JSON.stringify(input.heights) : null,
        custom_fields: JSON.stringify(customFields),
        poor_detection: input.poor_detection,
      })
      .executeTakeFirstOrThrow();
    const id = Number(r.insertId);
    await insertLogs(trx, ctx, id, (computed?.logs ?? input.logs.map((l) => ({ ...l, d: 0, v: 0 }))) as LogRow[]);
    if (input.references.length) {
      await trx
        .insertInto("measurement_references")
        .values(input.references.map((ref) => ({ organization_id: ctx.organizationId, measurement_id: id, ...ref })))
        .execute();
    }
    return id;
  },

  async answer(db, ctx, id) {
    const m = (await getMeasurementRow(db, ctx, id, { includeDeleted: true }))!;
    const logs = await getMeasurementLogs(db, ctx, id);
    return {
      measurement: {
        id: m.id,
        client_id: m.client_id,
        storage_id: m.storage_id,
        taken_at: m.taken_at,
        volume: m.volume,
        volume_unit: "m^3",
        logs_count: m.logs_count,
        log_length: m.log_length,
        volume_formula: m.volume_formula,
        coefficient: m.coefficient,
        photo_status: m.photo_status,
        logs: logs.map((l) => ({ id: l.id, d: l.d, v: l.v, isDeleted: l.is_deleted })),
      },
    };
  },
};

type LogRow = {
  x: number;
  y: number;
  r: number;
  d: number;
  v: number;
  cull_id?: number | null;
  wood_characteristic_id?: number | null;
  isDeleted?: boolean;
};

async function insertLogs(db: Executor, ctx: Ctx, measurementId: number, logs: LogRow[]) {
  for (let i = 0; i < logs.length; i += 1000) {
    const chunk = logs.slice(i, i + 1000);
    await db
      .insertInto("logs")
      .values(
        chunk.map((l) => ({
          organization_id: ctx.organizationId,
          measurement_id: measurementId,
          x: l.x,
          y: l.y,
          r: l.r,
          d: l.d,
          v: l.v,
          cull_id: l.cull_id ?? null,
          assortment_id: l.wood_characteristic_id ?? null,
          is_deleted: l.isDeleted ?? false,
        })),
      )
      .execute();
  }
}

/**
 * The row of a photo staff upload from the browser into a storage (the photo itself is stored by
 * services/measurement-uploads.server.ts); the measurement is then edited on its page.
 */
export async function insertPhotoMeasurement(
  db: DB,
  ctx: AuthContext,
  storage: { id: number; latitude: number | null; longitude: number | null },
) {
  const r = await db
    .insertInto("measurements")
    .values({
      organization_id: ctx.organizationId,
      storage_id: storage.id,
      user_id: ctx.userId,
      type: "diameter",
      taken_at: new Date(),
      measured_at: new Date(),
      latitude: storage.latitude,
      longitude: storage.longitude,
      log_length: 3,
      custom_fields: "{}",
    })
    .executeTakeFirstOrThrow();
  return Number(r.insertId);
}

/** Removes a measurement whose upload failed before anyone saw it. */
export async function discardMeasurement(db: DB, ctx: Pick<AuthContext, "organizationId">, id: number) {
  await db.deleteFrom("measurements").where("id", "=", id).where("organization_id", "=", ctx.organizationId).execute();
}

/** One measurement of the organisation (deleted ones too when asked), or undefined. */
export async function getMeasurementRow(db: Executor, ctx: Ctx, id: number, opts: { includeDeleted?: boolean } = {}) {
  let q = db
    .selectFrom("measurements")
    .selectAll()
    .where("id", "=", id)
    .where("organization_id", "=", ctx.organizationId);
  if (!opts.includeDeleted) q = q.where("deleted_at", "is", null);
  return q.executeTakeFirst();
}

export async function getMeasurementLogs(db: Executor, ctx: Ctx, measurementId: number) {
  return db
    .selectFrom("logs")
    .selectAll()
    .where("measurement_id", "=", measurementId)
    .where("organization_id", "=", ctx.organizationId)
    .orderBy("id")
    .execute();
}

export async function getMeasurementReferences(db: Executor, ctx: Ctx, measurementId: number) {
  return db
    .selectFrom("measurement_references")
    .select(["id", "x1", "y1", "x2", "y2", "size"])
    .where("measurement_id", "=", measurementId)
    .where("organization_id", "=", ctx.organizationId)
    .orderBy("id")
    .execute();
}

/**
 * PATCH /measurements/{id}: applies one of the spec's variants and recomputes diameters, volumes
 * and (with a measurement area) the coefficient on the server.
 */
export async function patchMeasurement(db: DB, ctx: AuthContext, id: number, patch: MeasurementPatch) {
  return db.transaction().execute(async (trx) => {
    const m = await openEditableRow(trx, ctx, "timber", id);

    const errors = await checkLookups(
      trx,
      ctx,
      { ...patch, storage_id: patch.storage_id },
      (patch.logs ?? []).map((l) => ({ cull_id: l.cull_id, wood_characteristic_id: l.wood_characteristic_id })),
    );
    let customFields: Record<string, unknown> | undefined;
    if (patch.custom_fields) {
      const merged = { ...(m.custom_fields ?? {}), ...patch.custom_fields };
      const cf = await checkCustomFields(trx, ctx, "timber", merged, { requireAll: true });
      Object.assign(errors, cf.errors);
      customFields = cf.clean;
    }
    if (patch.storage_id !== undefined && patch.storage_id !== m.storage_id && !errors.storage_id) {
      const target = await getStorageRow(trx, ctx, patch.storage_id);
      if (target && !canEdit(ctx, target)) errors.storage_id = ["timber:errors.storageNotAllowed"];
    }
    const hasLogs = m.logs_count > 0;
    if (patch.coefficient !== undefined && (hasLogs || !(patch.measurement_area ?? m.measurement_area))) {
      errors.coefficient = [hasLogs ? "timber:errors.coefficientWithLogs" : "timber:errors.coefficientWithoutArea"];
    }
    if (Object.keys(errors).length) throw new TimberValidationError(errors);

    const now = new Date();
    // Logs: removed ids are marked deleted; changed ones updated and stamped modified; new ones added.
    let logs = await getMeasurementLogs(trx, ctx, id);
    const logChanges = patch.logs !== undefined || patch.logs_removed !== undefined;
    if (logChanges) {
      const byId = new Map(logs.map((l) => [l.id, l]));
      for (const [i, change] of (patch.logs ?? []).entries()) {
        if (change.id !== undefined && !byId.has(change.id))
          throw new TimberValidationError({ [`logs.${i}.id`]: ["timber:errors.unknown"] });
        if (change.id === undefined && (change.x === undefined || change.y === undefined || change.r === undefined)) {
          throw new TimberValidationError({ [`logs.${i}`]: ["timber:errors.logNeedsXYR"] });
        }
      }
      for (const removed of patch.logs_removed ?? [])
        if (!byId.has(removed)) throw new TimberValidationError({ logs_removed: ["timber:errors.unknown"] });
    }
    // The history (decision 024): the state before is the row opened above, the logs just read
    // and the references as stored (read here when this PATCH replaces them), nothing written yet.
    const storedReferences = await getMeasurementReferences(trx, ctx, id);
    const before = await snapshotOne(trx, ctx, "timber", id, {
      row: m,
      children: { logs, references: storedReferences },
    });
    // Whether `logs` is still what is stored (the recomputation below rewrites d and v in SQL).
    let logsStored = true;
    const references = patch.references ?? storedReferences;
    if (patch.references) {
      await trx
        .deleteFrom("measurement_references")
        .where("measurement_id", "=", id)
        .where("organization_id", "=", ctx.organizationId)
        .execute();
      if (patch.references.length) {
        await trx
          .insertInto("measurement_references")
          .values(patch.references.map((r) => ({ organization_id: ctx.organizationId, measurement_id: id, ...r })))
          .execute();
      }
    }
    if (logChanges) {
      for (const change of patch.logs ?? []) {
        if (change.id === undefined) {
          await insertLogs(trx, ctx, id, [
            {
              x: change.x!,
              y: change.y!,
              r: change.r!,
              d: 0,
              v: 0,
              cull_id: change.cull_id,
              wood_characteristic_id: change.wood_characteristic_id,
            },
          ]);
          continue;
        }
        const set: Record<string, unknown> = { modified_at: now };
        if (change.x !== undefined) set.x = change.x;
        if (change.y !== undefined) set.y = change.y;
        if (change.r !== undefined) set.r = change.r;
        if (change.cull_id !== undefined) set.cull_id = change.cull_id;
        if (change.wood_characteristic_id !== undefined) set.assortment_id = change.wood_characteristic_id;
        if (change.isDeleted !== undefined) set.is_deleted = change.isDeleted;
        await trx.updateTable("logs").set(set).where("id", "=", change.id).where("measurement_id", "=", id).execute();
      }
      if (patch.logs_removed?.length) {
        await trx
          .updateTable("logs")
          .set({ is_deleted: true, modified_at: now })
          .where("id", "in", patch.logs_removed)
          .where("measurement_id", "=", id)
          .execute();
      }
      logs = await getMeasurementLogs(trx, ctx, id);
    }

    const next = {
      formula: patch.volume_formula ?? m.volume_formula,
      logLength: patch.log_length ?? m.log_length,
      woodTypeId: patch.wood_type_id !== undefined ? patch.wood_type_id : m.wood_type_id,
      area: patch.measurement_area !== undefined ? patch.measurement_area : m.measurement_area,
      coefficient: patch.coefficient !== undefined ? patch.coefficient : m.coefficient,
    };
    const set: Record<string, unknown> = { updated_at: now };
    const copy = [
      "measurement_type_id",
      "wood_type_id",
      "wood_quality_id",
      "log_length",
      "volume_formula",
      "shipment_number",
      "weight",
      "weight_density",
      "coefficient",
      "comment",
      "storage_id",
      "latitude",
      "longitude",
      "poor_detection",
    ] as const;
    for (const key of copy) if (patch[key] !== undefined) set[key] = patch[key];
    if (patch.wood_characteristic_id !== undefined) set.assortment_id = patch.wood_characteristic_id;
    if (patch.measurement_area !== undefined)
      set.measurement_area = patch.measurement_area
        ? JSON.stringify(patch.measurement_area.map((p) => ({ ...p, modified_at: p.modified_at ?? now.toISOString() })))
        : null;
    if (patch.load_lines !== undefined)
      set.load_lines = patch.load_lines?.length ? JSON.stringify(patch.load_lines) : null;
    if (customFields) set.custom_fields = JSON.stringify(customFields);

    const recompute =
      logChanges ||
      patch.references ||
      patch.volume_formula ||
      patch.log_length ||
      patch.wood_type_id !== undefined ||
      patch.measurement_area !== undefined ||
      patch.coefficient !== undefined;
    if (recompute) {
      const computed = computeTimber({
        logs: logs.map((l) => ({ id: l.id, x: l.x, y: l.y, r: l.r, isDeleted: l.is_deleted })),
        references,
        formula: next.formula,
        logLength: next.logLength,
        woodTypeId: next.woodTypeId,
        measurementArea: next.area,
        coefficient: next.coefficient,
      });
      if (computed) {
        set.volume = computed.volume;
        set.logs_count = computed.logsCount;
        if (computed.coefficient !== null) set.coefficient = computed.coefficient;
        const rows = computed.logs as unknown as Array<{ id: number; d: number; v: number }>;
        if (rows.length) {
          // One statement for all logs: a 1,000-log pile must not take 1,000 round trips.
          await sql`UPDATE logs SET d = CASE id ${sql.join(
            rows.map((r) => sql`WHEN ${r.id} THEN ${r.d}`),
            sql` `,
          )} END, v = CASE id ${sql.join(
            rows.map((r) => sql`WHEN ${r.id} THEN ${r.v}`),
            sql` `,
          )} END WHERE measurement_id = ${id} AND id IN (${sql.join(rows.map((r) => r.id))})`.execute(trx);
          logsStored = false;
        }
      }
    }
    await trx
      .updateTable("measurements")
      .set(set)
      .where("id", "=", id)
      .where("organization_id", "=", ctx.organizationId)
      .execute();
    // The state after: the row read back for the answer, the logs and references already read
    // where they are still what is stored (else read: replaced references, recomputed logs).
    const stored = (await getMeasurementRow(trx, ctx, id))!;
    const after = await snapshotOne(trx, ctx, "timber", id, {
      row: stored,
      children: {
        ...(logsStored ? { logs } : {}),
        ...(patch.references ? {} : { references: storedReferences }),
      },
    });
    await recordHistory(trx, ctx, actorOf(ctx), "timber", "edited", before, undefined, after);
    return stored;
  });
}

/** POST /manual_measurements: a stated volume, not before the storage's last confirmed inventory. */
export async function createManualMeasurement(
  db: DB,
  ctx: AuthContext,
  input: {
    taken_at: Date;
    measurement_type_id: number;
    volume: number;
    wood_characteristic_id?: number | null;
    storage_id: number;
    comment?: string | null;
  },
) {
  const storage = await getStorageRow(db, ctx, input.storage_id);
  if (!storage) fail("manual_measurement.storage_id", "timber:errors.unknownStorage");
  requireEditor(ctx, storage);
  const errors: Record<string, string[]> = {};
  if (storage.last_inventory_confirmed_at && input.taken_at < storage.last_inventory_confirmed_at) {
    errors["manual_measurement.taken_at"] = ["timber:errors.beforeInventory"];
  }
  const lookups = await checkLookups(db, ctx, { wood_characteristic_id: input.wood_characteristic_id });
  if (lookups.wood_characteristic_id)
    errors["manual_measurement.wood_characteristic_id"] = lookups.wood_characteristic_id;
  if (Object.keys(errors).length) throw new TimberValidationError(errors);
  const r = await db
    .insertInto("measurements")
    .values({
      organization_id: ctx.organizationId,
      storage_id: storage.id,
      user_id: ctx.userId,
      type: "manual",
      taken_at: input.taken_at,
      measured_at: new Date(),
      measurement_type_id: input.measurement_type_id,
      volume: input.volume,
      initial_volume: input.volume,
      assortment_id: input.wood_characteristic_id ?? null,
      comment: input.comment || null,
      photo_status: 1,
      custom_fields: "{}",
    })
    .executeTakeFirstOrThrow();
  return (await getMeasurementRow(db, ctx, Number(r.insertId)))!;
}

/** PATCH /measurements/move_storage. Measurements counted in an inventory stay where they are. */
export async function moveMeasurements(
  db: DB,
  ctx: AuthContext,
  moves: Array<{ measurement_id: number; storage_id: number }>,
) {
  return db.transaction().execute(async (trx) => {
    const rows = await ownedMeasurements(
      trx,
      ctx,
      "timber",
      moves.map((m) => m.measurement_id),
    );
    await requireEditorOnStorages(trx, ctx, [...rows.map((r) => r.storage_id), ...moves.map((m) => m.storage_id)]);
    const locked = moves.findIndex((mv) => rows.find((r) => r.id === mv.measurement_id)!.inventory_id !== null);
    if (locked >= 0) fail(`move_storage.${locked}.measurement_id`, "timber:errors.inInventory");
    const ids = moves.map((mv) => mv.measurement_id);
    await withHistory(trx, ctx, actorOf(ctx), "timber", "moved", ids, { children: false }, async () => {
      for (const mv of moves) {
        await trx
          .updateTable("measurements")
          .set({ storage_id: mv.storage_id, updated_at: new Date() })
          .where("id", "=", mv.measurement_id)
          .where("organization_id", "=", ctx.organizationId)
          .execute();
      }
    });
    return moves.length;
  });
}

/** DELETE /measurements: soft delete; the deleted page lists them. */
export async function deleteMeasurements(db: DB, ctx: AuthContext, ids: number[]) {
  return softDeleteMeasurements(db, ctx, "timber", ids);
}

const EXTRA_FIELDS = [
  "logs",
  "references",
  "logs_sheet",
  "custom_fields",
  "heights",
  "load_lines",
  "measurement_area",
  "metrology",
  "load_json",
  "comment",
] as const;

/** GET /measurements/{id}: the measurement's fields (or the asked subset) plus the asked extras. */
export async function serializeMeasurement(
  db: DB,
  ctx: Ctx,
  m: Measurement,
  opts: { fields?: string[]; extra?: string[] },
) {
  const base: Record<string, unknown> = {
    id: m.id,
    storage_id: m.storage_id,
    device_id: m.device_id,
    type: m.type,
    taken_at: m.taken_at,
    measured_at: m.measured_at,
    created_at: m.created_at,
    updated_at: m.updated_at,
    deleted_at: m.deleted_at,
    measurement_type_id: m.measurement_type_id,
    latitude: m.latitude,
    longitude: m.longitude,
    log_length: m.log_length,
    logs_count: m.logs_count,
    volume: m.volume,
    initial_volume: m.initial_volume,
    coefficient: m.coefficient,
    wood_type_id: m.wood_type_id,
    wood_quality_id: m.wood_quality_id,
    wood_characteristic_id: m.assortment_id,
    assortment_id: m.assortment_id,
    volume_formula: m.volume_formula,
    inventory_id: m.inventory_id,
    shipment_number: m.shipment_number,
    weight: m.weight,
    weight_density: m.weight_density,
    poor_detection: m.poor_detection,
    photo_file_name: m.photo_file_name,
    photo_width: m.photo_width,
    photo_height: m.photo_height,
    photo_status: m.photo_status,
    photo: m.photo_key ? `/files/measurements/${m.id}/original` : null,
    photo_optimized: m.photo_optimized_key ? `/files/measurements/${m.id}/optimized` : null,
    photo_popup: m.photo_popup_key ? `/files/measurements/${m.id}/popup` : null,
    photo_thumbnail: m.photo_thumbnail_key ? `/files/measurements/${m.id}/thumbnail` : null,
  };
  // The spec's `token`: the measurement's public link token, when it is shared (and showable).
  if (!opts.fields?.length || opts.fields.includes("token"))
    base.token = (await publicTokensOf(db, ctx, "measurement", [m.id])).get(m.id) ?? null;
  const data: Record<string, unknown> = {};
  if (opts.fields?.length) {
    data.id = m.id;
    for (const f of opts.fields) if (f in base) data[f] = base[f];
  } else Object.assign(data, base);
  const extra = new Set((opts.extra ?? []).filter((e) => (EXTRA_FIELDS as readonly string[]).includes(e)));
  if (extra.has("logs") || extra.has("logs_sheet")) {
    const logs = await getMeasurementLogs(db, ctx, m.id);
    if (extra.has("logs")) {
      data.logs = logs.map((l) => ({
        id: l.id,
        x: l.x,
        y: l.y,
        r: l.r,
        d: l.d,
        v: l.v,
        cull_id: l.cull_id,
        wood_characteristic_id: l.assortment_id,
        isDeleted: l.is_deleted,
        isOutOfRange: l.is_out_of_range,
        modified_at: l.modified_at,
        updated: l.modified_at !== null,
      }));
    }
    if (extra.has("logs_sheet")) {
      const s = summarizeMeasurement(
        logs.map((l) => ({
          d: l.d,
          v: l.v,
          isDeleted: l.is_deleted,
          cullId: l.cull_id,
          assortmentId: l.assortment_id,
        })),
        { formula: m.volume_formula as LogFormula, logLengthM: m.log_length ?? 0, species: speciesOf(m.wood_type_id) },
      );
      data.logs_sheet = {
        logs: s.logsSheet.map((r) => ({
          diameter: r.diameterCm,
          log_length: r.lengthM,
          logs_count: r.count,
          volume: r.volume,
        })),
        summary: {
          average_diameter: s.averageDiameterCm,
          total_logs: s.logCount,
          diameter_unit: "cm",
          length_unit: "m",
        },
      };
    }
  }
  if (extra.has("references")) data.references = await getMeasurementReferences(db, ctx, m.id);
  if (extra.has("custom_fields")) data.custom_fields = m.custom_fields;
  if (extra.has("heights")) data.heights = m.heights;
  if (extra.has("load_lines") || extra.has("load_json")) data.load_lines = m.load_lines;
  if (extra.has("measurement_area")) data.measurement_area = m.measurement_area;
  if (extra.has("metrology")) data.metrology = m.metrology;
  if (extra.has("comment")) data.comment = m.comment;
  return data;
}
