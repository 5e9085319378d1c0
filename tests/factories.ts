import { randomBytes } from "node:crypto";
import type { AssignableType, RoleName } from "#db/schema";
import { createSession } from "~/models/session.server";
import { db } from "~/utils/db.server";
import { hashPassword } from "~/utils/password.server";
import { commitSessionCookie } from "~/utils/session.server";

// A few lines make an organisation with users, roles, storages and measurements.

const unique = () => randomBytes(4).toString("hex");
export const PASSWORD = "Correct-Horse-42!";
let cachedHash: Promise<string> | undefined;

export async function createOrganization(values: { name?: string; features?: string[]; cmpc_enabled?: boolean } = {}) {
  const r = await db()
    .insertInto("organizations")
    .values({
      name: values.name ?? `Org ${unique()}`,
      features: JSON.stringify(values.features ?? []),
      cmpc_enabled: values.cmpc_enabled ?? false,
    })
    .executeTakeFirstOrThrow();
  return { id: Number(r.insertId), name: values.name };
}

export async function createUser(
  organizationId: number,
  opts: { role?: RoleName; email?: string; name?: string; locale?: string; on?: { type: AssignableType; id: number }; verified?: boolean; setupDone?: boolean } = {},
) {
  cachedHash ??= hashPassword(PASSWORD);
  const email = opts.email ?? `user-${unique()}@example.test`;
  const r = await db()
    .insertInto("users")
    .values({
      email,
      name: opts.name ?? "Test User",
      password_hash: await cachedHash,
      locale: opts.locale ?? "en",
      verified_at: opts.verified === false ? null : new Date(),
      // Past the /setup screen unless a test wants the access guard to send the user there.
      devices_updated_at: opts.setupDone === false ? null : new Date(),
      recent_organization_id: organizationId,
    })
    .executeTakeFirstOrThrow();
  const id = Number(r.insertId);
  await addRole(id, organizationId, opts.role ?? "admin", opts.on);
  return { id, email, password: PASSWORD };
}

export async function addRole(userId: number, organizationId: number, name: RoleName, on?: { type: AssignableType; id: number }) {
  await db()
    .insertInto("roles")
    .values({
      user_id: userId,
      organization_id: organizationId,
      name,
      assignable_type: on?.type ?? "Organization",
      assignable_id: on?.id ?? organizationId,
    })
    .execute();
}

export async function createStorage(organizationId: number, values: { name?: string; storage_state_id?: number } = {}) {
  const r = await db()
    .insertInto("storages")
    .values({ organization_id: organizationId, name: values.name ?? `Storage ${unique()}`, storage_state_id: values.storage_state_id ?? 2, latitude: 58.38, longitude: 26.72 })
    .executeTakeFirstOrThrow();
  return { id: Number(r.insertId) };
}

export async function createMeasurement(organizationId: number, storageId: number, values: { volume?: number; takenAt?: Date } = {}) {
  const r = await db()
    .insertInto("measurements")
    .values({
      organization_id: organizationId,
      storage_id: storageId,
      taken_at: values.takenAt ?? new Date(),
      volume: values.volume ?? 1.5,
      logs_count: 3,
      log_length: 3,
    })
    .executeTakeFirstOrThrow();
  return { id: Number(r.insertId) };
}

/** A bearer token for /api/web_app calls, as POST /logins would give. */
export async function apiToken(userId: number, ttlSeconds = 3600) {
  const s = await createSession(db(), { userId, kind: "api", ttlSeconds });
  return s.token;
}

/** A Cookie header of a signed-in screen session (what a browser would send). */
export async function webCookie(userId: number, ttlSeconds = 3600) {
  const s = await createSession(db(), { userId, kind: "web", ttlSeconds });
  const setCookie = await commitSessionCookie(s.token, s.expiresAt);
  return setCookie.split(";")[0];
}
