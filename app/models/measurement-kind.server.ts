import type { Database, Device, RoleName } from "#db/schema";
import { actorOf, withHistory } from "~/models/measurement-history.server";
import { EDITING_ROLES, hasRoleOnStorage } from "~/models/role.server";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "~/utils/errors";
import type { Selectable, Transaction } from "kysely";
import type { z } from "zod";

// Measurement kinds: timber and lumber today; container, truck and truck-diameter next. What is
// the same for every kind lives here: the kind's table and file folder, the rules of editing
// (a live storage the caller may edit in, no inventory lock), the one opening of an editable row,
// soft delete, custom fields, the client-id lookup of device uploads, and the errors the API
// answers for all of them. Photos: measurement-photo.server.ts (rows) and
// services/photos.server.ts (files and renditions); device uploads: services/device-uploads.server.ts.
// docs/decisions/008-export-types-and-measurement-kinds.md shows how a kind is added.
//
// A kind's table has at least: id, organization_id, storage_id, device_id, client_id (unique
// with organization_id), taken_at, inventory_id, custom_fields, deleted_at, updated_at and the
// photo columns photo_file_name, photo_key, photo_optimized_key, photo_popup_key,
// photo_thumbnail_key, photo_width, photo_height, photo_status, photo_attempts, photo_error,
// photo_enqueued_at (see db/migrations/2026_11_21_0010_measurement_kind_photos.ts).

export const MEASUREMENT_KINDS = {
  timber: {
    table: "measurements",
    /** Under organizations/{id}/ in the file storage, and under /files/ in URLs. */
    filesFolder: "measurements",
    /** custom_fields.source_key of the kind's own fields. */
    customFieldSource: "measurement",
  },
  lumber: {
    table: "lumber_measurements",
    filesFolder: "lumber_measurements",
    customFieldSource: "lumber_measurement",
  },
  truck: {
    table: "truck_measurements",
    filesFolder: "truck_measurements",
    customFieldSource: "truck_measurement",
  },
  container: {
    table: "container_measurements",
    filesFolder: "container_measurements",
    customFieldSource: "container_measurement",
  },
  // Log ends counted on a truck (issue 22, docs/decisions/023-shipments.md); it shares the truck's
  // custom fields (the spec has no source key of its own for it).
  truck_diameter: {
    table: "truck_diameter_measurements",
    filesFolder: "truck_diameter_measurements",
    customFieldSource: "truck_measurement",
  },
} as const;

export type MeasurementKind = keyof typeof MEASUREMENT_KINDS;
export type MeasurementTable = (typeof MEASUREMENT_KINDS)[MeasurementKind]["table"];
type TableOf<K extends MeasurementKind> = (typeof MEASUREMENT_KINDS)[K]["table"];
export type MeasurementRow<K extends MeasurementKind> = Selectable<Database[TableOf<K>]>;

export const MEASUREMENT_KIND_NAMES = Object.keys(MEASUREMENT_KINDS) as MeasurementKind[];

export function isMeasurementKind(value: unknown): value is MeasurementKind {
  return typeof value === "string" && value in MEASUREMENT_KINDS;
}

/** The kind whose files live under /files/{folder}/, if any. */
export function kindOfFilesFolder(folder: string): MeasurementKind | undefined {
  return MEASUREMENT_KIND_NAMES.find((k) => MEASUREMENT_KINDS[k].filesFolder === folder);
}

type Ctx = Pick<AuthContext, "organizationId">;
type Executor = DB | Transaction<Database>;

// ---- the errors every kind's models throw, answered by utils/errors.ts like every other ----

/** Input the caller got wrong: answered 422 with the errors keyed by payload path. */
export class TimberValidationError extends ValidationError {}
export { ForbiddenError, NotFoundError };
/** The measurement is part of an inventory: 409. */
export class LockedError extends ConflictError {
  constructor() {
    super("locked", { _: ["timber:detail.locked"] });
  }
}

export function fail(path: string, key: string): never {
  throw new TimberValidationError({ [path]: [key] });
}

// ---- editing rules ----

/** A live storage of the caller's organisation (the one a measurement is in), or undefined. */
export async function getStorageRow(db: Executor, ctx: Ctx, storageId: number) {
  return db
    .selectFrom("storages")
    .selectAll()
    .where("id", "=", storageId)
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

/** Editing needs measurer, admin or super_admin on the organisation or on the storage (or its group). */
export function canEdit(
  ctx: Pick<AuthContext, "roles" | "organizationId">,
  storage: { id: number; storage_group_id: number | null },
) {
  return hasRoleOnStorage(ctx.roles, EDITING_ROLES as RoleName[], {
    organizationId: ctx.organizationId,
    storageId: storage.id,
    storageGroupId: storage.storage_group_id,
  });
}

export function requireEditor(
  ctx: Pick<AuthContext, "roles" | "organizationId">,
  storage: { id: number; storage_group_id: number | null },
) {
  if (!canEdit(ctx, storage)) throw new ForbiddenError();
}

/** Whether the caller may edit in the measurement's storage (false for a missing storage). */
export async function canEditIn(
  db: Executor,
  ctx: Pick<AuthContext, "roles" | "organizationId">,
  m: { storage_id: number },
) {
  const storage = await getStorageRow(db, ctx, m.storage_id);
  return storage ? canEdit(ctx, storage) : false;
}

/**
 * The rules every measurement's edit shares: its storage is live, the caller may edit in it,
 * and no inventory has locked it.
 */
export async function requireEditable(
  db: Executor,
  ctx: Pick<AuthContext, "roles" | "organizationId">,
  m: { storage_id: number; inventory_id: number | null },
) {
  const storage = await getStorageRow(db, ctx, m.storage_id);
  if (!storage) throw new NotFoundError();
  requireEditor(ctx, storage);
  if (m.inventory_id !== null) throw new LockedError();
}

/**
 * The opening of every PATCH of a measurement: its live row in the caller's organisation, locked
 * for the transaction's update, after the editing rules (404, 403, 409 locked).
 */
export async function openEditableRow<K extends MeasurementKind>(
  trx: Transaction<Database>,
  ctx: Pick<AuthContext, "roles" | "organizationId">,
  kind: K,
  id: number,
): Promise<MeasurementRow<K>> {
  const table: MeasurementTable = MEASUREMENT_KINDS[kind].table;
  const m = await trx
    .selectFrom(table)
    .selectAll()
    .where("id", "=", id)
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null)
    .forUpdate()
    .executeTakeFirst();
  if (!m) throw new NotFoundError();
  await requireEditable(trx, ctx, m);
  return m as MeasurementRow<K>;
}

// ---- soft delete ----

/** Ids that are the organisation's live measurements of the kind; any other id makes the whole call 404. */
export async function ownedMeasurements(db: Executor, ctx: Ctx, kind: MeasurementKind, ids: number[]) {
  const unique = [...new Set(ids)];
  const rows = await db
    .selectFrom(MEASUREMENT_KINDS[kind].table)
    .select(["id", "storage_id", "inventory_id"])
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null)
    .where("id", "in", unique)
    .execute();
  if (rows.length !== unique.length) throw new NotFoundError();
  return rows;
}

/** The caller may edit in every one of these live storages of the organisation (else 404 / 403). */
export async function requireEditorOnStorages(
  db: Executor,
  ctx: Pick<AuthContext, "roles" | "organizationId">,
  storageIds: number[],
) {
  const storages = await db
    .selectFrom("storages")
    .select(["id", "storage_group_id"])
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null)
    .where("id", "in", [...new Set(storageIds)])
    .execute();
  if (storages.length !== new Set(storageIds).size) throw new NotFoundError();
  for (const s of storages) requireEditor(ctx, s);
}

/**
 * DELETE of measurements of any kind: soft (deleted_at), all or nothing. Another
 * organisation's id is 404, a storage the caller may not edit in 403, and a measurement
 * counted in an inventory 422 inInventory on its place in the list.
 */
export async function softDeleteMeasurements(
  db: DB,
  ctx: Pick<AuthContext, "roles" | "organizationId"> & { userId?: number },
  kind: MeasurementKind,
  ids: number[],
) {
  return db.transaction().execute(async (trx) => {
    const rows = await ownedMeasurements(trx, ctx, kind, ids);
    await requireEditorOnStorages(
      trx,
      ctx,
      rows.map((r) => r.storage_id),
    );
    const locked = ids.findIndex((id) => rows.find((r) => r.id === id)!.inventory_id !== null);
    if (locked >= 0) fail(`measurement_ids.${locked}`, "timber:errors.inInventory");
    const deleted = rows.map((r) => r.id);
    await withHistory(trx, ctx, actorOf(ctx), kind, "deleted", deleted, { children: false }, () =>
      trx
        .updateTable(MEASUREMENT_KINDS[kind].table)
        .set({ deleted_at: new Date() })
        .where("organization_id", "=", ctx.organizationId)
        .where("id", "in", deleted)
        .execute(),
    );
    return rows.length;
  });
}

// ---- custom fields ----

/** Custom field values: known keys of the organisation's fields of the kind, typed as declared. */
export async function checkCustomFields(
  db: Executor,
  ctx: Ctx,
  kind: MeasurementKind,
  values: Record<string, unknown>,
  opts: { requireAll: boolean },
) {
  const fields = await db
    .selectFrom("custom_fields")
    .select(["key", "name", "data_type", "required"])
    .where("organization_id", "=", ctx.organizationId)
    .where("source_key", "=", MEASUREMENT_KINDS[kind].customFieldSource)
    .where("archived", "=", false)
    .execute();
  const errors: Record<string, string[]> = {};
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const clean: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of Object.entries(values)) {
    const field = byKey.get(key);
    if (!field) {
      errors[`custom_fields.${key}`] = ["timber:errors.unknownCustomField"];
      continue;
    }
    if (value === null || value === "") {
      clean[key] = null;
      continue;
    }
    const text = String(value);
    const ok =
      field.data_type === "integer"
        ? /^-?\d+$/.test(text)
        : field.data_type === "decimal"
          ? /^-?\d+(\.\d+)?$/.test(text)
          : field.data_type === "boolean"
            ? typeof value === "boolean" || text === "true" || text === "false"
            : field.data_type === "date" || field.data_type === "datetime"
              ? !Number.isNaN(Date.parse(text))
              : text.length <= 1000;
    if (!ok) errors[`custom_fields.${key}`] = ["timber:errors.customFieldType"];
    else
      clean[key] =
        field.data_type === "integer" || field.data_type === "decimal"
          ? Number(text)
          : field.data_type === "boolean"
            ? value === true || text === "true"
            : text;
  }
  if (opts.requireAll) {
    for (const f of fields) {
      if (f.required && (clean[f.key] === undefined || clean[f.key] === null))
        errors[`custom_fields.${f.key}`] = ["timber:errors.requiredCustomField"];
    }
  }
  return { errors, clean };
}

// ---- device uploads ----

/** The measurement a device already uploaded with this client id, if any. */
export async function findIdByClientId(db: Executor, ctx: Ctx, kind: MeasurementKind, clientId: string) {
  const row = await db
    .selectFrom(MEASUREMENT_KINDS[kind].table)
    .select("id")
    .where("organization_id", "=", ctx.organizationId)
    .where("client_id", "=", clientId)
    .executeTakeFirst();
  return row?.id;
}

export type UploadingDevice = Pick<Device, "id" | "organization_id" | "all_storages">;

/**
 * What a kind plugs into the device upload envelope (services/device-uploads.server.ts), which
 * does the rest the same way for every kind: the multipart body, client-id idempotency, the
 * photo check, the device's storage access, the picture credit, storing the photo and queueing
 * its renditions.
 */
export interface DeviceUploadPlug<I extends { client_id: string; storage_id: number }, P> {
  kind: MeasurementKind;
  /** The upload's `measurement` JSON part. */
  schema: z.ZodType<I>;
  /**
   * Checks against the organisation's data (lookups, custom fields) and computes the numbers
   * with app/domain; throws TimberValidationError with every field's errors. Nothing written yet.
   */
  prepare(db: DB, ctx: Ctx, input: I, photo: { width: number; height: number }): Promise<P>;
  /** Inserts the measurement (and its logs, planks...) in the envelope's transaction; its id. */
  insert(trx: Transaction<Database>, ctx: Ctx, device: UploadingDevice, input: I, prepared: P): Promise<number>;
  /** The answer's body for a stored measurement (201 the first time, 200 on a retry). */
  answer(db: DB, ctx: Ctx, id: number): Promise<Record<string, unknown>>;
}

// ---- trust (docs/decisions/024-trust.md) ----

/** The original photo's SHA-256 kept at upload (null: none kept), or undefined without a photo. */
export async function getPhotoFingerprint(db: Executor, ctx: Ctx, kind: MeasurementKind, id: number) {
  const row = await db
    .selectFrom(MEASUREMENT_KINDS[kind].table)
    .select(["photo_key", "photo_sha256"])
    .where("id", "=", id)
    .where("organization_id", "=", ctx.organizationId)
    .executeTakeFirst();
  return row?.photo_key ? { sha256: row.photo_sha256 } : undefined;
}
