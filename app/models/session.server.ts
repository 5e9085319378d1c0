import type { DB } from "~/utils/db.server";
import { hashToken, randomToken } from "~/utils/token.server";

// Web screens and API clients share one kind of server-side session row: the cookie or the
// bearer token carries a random token, the row keeps only its hash, its expiry and revocation.

/** Longer tokens are refused unread. */
export const MAX_TOKEN_LENGTH = 200;

export type SessionKind = "web" | "api";
export type SessionLookup =
  | { status: "valid"; sessionId: number; userId: number; expiresAt: Date }
  | { status: "expired" }
  | { status: "invalid" };

export async function createSession(
  db: DB,
  input: { userId: number; kind: SessionKind; ttlSeconds: number; ip?: string | null; userAgent?: string | null },
) {
  const token = randomToken();
  const createdAt = new Date();
  // Whole seconds keep created_at + expires_in exact for clients.
  createdAt.setMilliseconds(0);
  const expiresAt = new Date(createdAt.getTime() + input.ttlSeconds * 1000);
  const result = await db
    .insertInto("sessions")
    .values({
      token_hash: hashToken(token),
      user_id: input.userId,
      kind: input.kind,
      ip: input.ip ?? null,
      user_agent: input.userAgent?.slice(0, 512) ?? null,
      created_at: createdAt,
      expires_at: expiresAt,
    })
    .executeTakeFirstOrThrow();
  return { token, id: Number(result.insertId), createdAt, expiresAt, expiresIn: input.ttlSeconds };
}

export async function findSession(db: DB, token: string | null | undefined, now = new Date()): Promise<SessionLookup> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return { status: "invalid" };
  const row = await db
    .selectFrom("sessions")
    .select(["id", "user_id", "expires_at", "revoked_at"])
    .where("token_hash", "=", hashToken(token))
    .executeTakeFirst();
  if (!row || row.revoked_at) return { status: "invalid" };
  if (row.expires_at.getTime() <= now.getTime()) return { status: "expired" };
  return { status: "valid", sessionId: row.id, userId: row.user_id, expiresAt: row.expires_at };
}

export async function revokeSession(db: DB, token: string) {
  await db
    .updateTable("sessions")
    .set({ revoked_at: new Date() })
    .where("token_hash", "=", hashToken(token))
    .where("revoked_at", "is", null)
    .execute();
}

/**
 * Signs the account out everywhere (a password change or reset): every live session is revoked,
 * but the one whose token is given (the browser or client that made the change).
 */
export async function revokeOtherSessions(db: DB, userId: number, keepToken?: string | null) {
  let query = db
    .updateTable("sessions")
    .set({ revoked_at: new Date() })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null);
  if (keepToken) query = query.where("token_hash", "!=", hashToken(keepToken));
  await query.execute();
}

/** Expired and revoked rows are kept a week for audit, then removed by the sweep job. */
export async function deleteOldSessions(db: DB, olderThan: Date) {
  const result = await db
    .deleteFrom("sessions")
    .where((eb) => eb.or([eb("expires_at", "<", olderThan), eb("revoked_at", "<", olderThan)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
