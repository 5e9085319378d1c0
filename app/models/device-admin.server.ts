import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import { hashToken, randomToken } from "~/utils/token.server";
import { ensureActivationCode } from "./device.server";

// Devices as the organisation's admins manage them: list, rename, storage access, delete, and
// e-mail invitations to install the app. Another organisation's device is undefined (404).
type Ctx = Pick<AuthContext, "organizationId">;

export const NEW_DEVICE_HOURS = 24;

export async function listDevices(db: DB, ctx: Ctx, opts: { q?: string } = {}) {
  let query = db
    .selectFrom("devices")
    .leftJoin("users", "users.id", "devices.user_id")
    .select([
      "devices.id",
      "devices.name",
      "devices.affiliation",
      "devices.hw_id",
      "devices.created_at",
      "devices.last_used",
      "devices.locked",
      "devices.all_storages",
      "devices.default_storage_id",
      "users.email as user_email",
    ])
    .where("devices.organization_id", "=", ctx.organizationId)
    .where("devices.deleted_at", "is", null);
  const q = opts.q?.trim();
  if (q) {
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb("devices.name", "like", like),
        eb("devices.affiliation", "like", like),
        eb("devices.hw_id", "like", like),
        eb("users.email", "like", like),
      ]),
    );
  }
  const devices = await query.orderBy("devices.created_at", "desc").orderBy("devices.id", "desc").execute();
  const links = devices.length
    ? await db
        .selectFrom("device_storages")
        .select(["device_id", "storage_id"])
        .where(
          "device_id",
          "in",
          devices.map((d) => d.id),
        )
        .execute()
    : [];
  return devices.map((d) => ({
    ...d,
    storage_ids: d.all_storages ? null : links.filter((l) => l.device_id === d.id).map((l) => l.storage_id),
  }));
}

export type AdminDevice = Awaited<ReturnType<typeof listDevices>>[number];

/** How many devices the organisation has (not deleted): the access guard sends an organisation without any to /setup. */
export async function countDevices(db: DB, ctx: Ctx) {
  const row = await db
    .selectFrom("devices")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function getDevice(db: DB, ctx: Ctx, id: number) {
  const rows = await listDevices(db, ctx);
  return rows.find((d) => d.id === id);
}

/** The spec's device shape: storage_ids empty means all storages. */
export function serializeDevice(d: AdminDevice) {
  return {
    id: d.id,
    name: d.name,
    affiliation: d.affiliation,
    hw_id: d.hw_id,
    created_at: d.created_at,
    last_used: d.last_used,
    locked: d.locked,
    user_email: d.user_email ? { email: d.user_email } : null,
    storage_ids: d.storage_ids ?? [],
    all_storages: d.all_storages,
    default_storage_id: d.default_storage_id,
  };
}

export function isNewDevice(createdAt: Date | string, now = Date.now()) {
  return now - new Date(createdAt).getTime() < NEW_DEVICE_HOURS * 3600_000;
}

export async function renameDevice(
  db: DB,
  ctx: Ctx,
  id: number,
  input: { name?: string; affiliation?: string | null },
) {
  if (!(await getDevice(db, ctx, id))) return false;
  await db
    .updateTable("devices")
    .set(input)
    .where("id", "=", id)
    .where("organization_id", "=", ctx.organizationId)
    .execute();
  return true;
}

export class DeviceAccessError extends Error {
  constructor(public field: "storage_ids" | "default_storage_id") {
    super(field);
  }
}

/**
 * Access: null (or an empty list) means all storages; otherwise the chosen storages, all of this
 * organisation, with the default among them.
 */
export async function setDeviceAccess(
  db: DB,
  ctx: Ctx,
  id: number,
  input: { storage_ids: number[] | null; default_storage_id?: number | null },
) {
  if (!(await getDevice(db, ctx, id))) return false;
  const chosen = input.storage_ids && input.storage_ids.length ? [...new Set(input.storage_ids)] : null;
  const own = (
    await db
      .selectFrom("storages")
      .select("id")
      .where("organization_id", "=", ctx.organizationId)
      .where("deleted_at", "is", null)
      .execute()
  ).map((s) => s.id);
  if (chosen && chosen.some((s) => !own.includes(s))) throw new DeviceAccessError("storage_ids");
  const def = input.default_storage_id ?? null;
  if (def !== null && !(chosen ?? own).includes(def)) throw new DeviceAccessError("default_storage_id");
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("device_storages").where("device_id", "=", id).execute();
    if (chosen)
      await trx
        .insertInto("device_storages")
        .values(chosen.map((storage_id) => ({ device_id: id, storage_id })))
        .execute();
    await trx
      .updateTable("devices")
      .set({ all_storages: !chosen, default_storage_id: def })
      .where("id", "=", id)
      .execute();
  });
  return true;
}

export async function deleteDevice(db: DB, ctx: Ctx, id: number) {
  if (!(await getDevice(db, ctx, id))) return false;
  await db
    .updateTable("devices")
    .set({ deleted_at: new Date() })
    .where("id", "=", id)
    .where("organization_id", "=", ctx.organizationId)
    .execute();
  return true;
}

/** Records an invitation to install the app; answers the organisation's activation code the mail carries. */
export async function createDeviceInvitation(db: DB, ctx: Ctx, email: string) {
  const code = await ensureActivationCode(db, ctx);
  const token = randomToken();
  await db
    .insertInto("device_invitations")
    .values({ organization_id: ctx.organizationId, sent_to: email, token_hash: hashToken(token) })
    .execute();
  return { code };
}

export async function listPendingInvitations(db: DB, ctx: Ctx) {
  return db
    .selectFrom("device_invitations")
    .select(["id", "sent_to", "sent_at"])
    .where("organization_id", "=", ctx.organizationId)
    .where("accepted_at", "is", null)
    .orderBy("sent_at", "desc")
    .execute();
}

/** Whole days since sending (0 = today), as the pending list shows them. */
export function invitationAgeDays(sentAt: Date | string, now = Date.now()) {
  return Math.floor((now - new Date(sentAt).getTime()) / 86_400_000);
}
