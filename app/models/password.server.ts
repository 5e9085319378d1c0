import type { DB } from "~/utils/db.server";
import { hashPassword, verifyPassword } from "~/utils/password.server";
import { revokeOtherSessions } from "./session.server";

// PASSWORD_ALREADY_USED: the new password may not equal the current one nor any of the last
// PASSWORD_HISTORY_SIZE earlier ones. Expiry: when the account has the 30-day expiry on, a new
// password moves it 30 days ahead.
export const PASSWORD_HISTORY_SIZE = 5;
export const PASSWORD_EXPIRY_DAYS = 30;

export function expiryFromNow() {
  return new Date(Date.now() + PASSWORD_EXPIRY_DAYS * 24 * 60 * 60 * 1000);
}

export async function isPasswordReused(db: DB, userId: number, password: string) {
  const user = await db.selectFrom("users").select("password_hash").where("id", "=", userId).executeTakeFirst();
  const history = await db
    .selectFrom("password_history")
    .select("password_hash")
    .where("user_id", "=", userId)
    .orderBy("id", "desc")
    .limit(PASSWORD_HISTORY_SIZE)
    .execute();
  for (const hash of [user?.password_hash, ...history.map((h) => h.password_hash)]) {
    if (hash && (await verifyPassword(password, hash))) return true;
  }
  return false;
}

export class PasswordReusedError extends Error {
  code = "PASSWORD_ALREADY_USED" as const;
}

/** Sets a new password (checked against the history), keeps the old hash in the history. */
/**
 * `keepSessionToken`: the session that changes its own password stays signed in; every other
 * session of the account is revoked (a reset revokes them all).
 */
export async function setPassword(
  db: DB,
  userId: number,
  password: string,
  opts: { verify?: boolean; keepSessionToken?: string | null } = {},
) {
  if (await isPasswordReused(db, userId, password)) throw new PasswordReusedError();
  const user = await db
    .selectFrom("users")
    .select(["password_hash", "password_expiry"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  const hash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    if (user.password_hash)
      await trx.insertInto("password_history").values({ user_id: userId, password_hash: user.password_hash }).execute();
    await trx
      .updateTable("users")
      .set({
        password_hash: hash,
        password_expiry: user.password_expiry ? expiryFromNow() : null,
        failed_login_count: 0,
        locked_until: null,
        ...(opts.verify ? { verified_at: new Date() } : {}),
        updated_at: new Date(),
      })
      .where("id", "=", userId)
      .execute();
    // Older history beyond what the rule needs is dropped.
    const keep = await trx
      .selectFrom("password_history")
      .select("id")
      .where("user_id", "=", userId)
      .orderBy("id", "desc")
      .limit(PASSWORD_HISTORY_SIZE)
      .execute();
    if (keep.length === PASSWORD_HISTORY_SIZE) {
      await trx
        .deleteFrom("password_history")
        .where("user_id", "=", userId)
        .where("id", "<", keep[keep.length - 1].id)
        .execute();
    }
    await revokeOtherSessions(trx, userId, opts.keepSessionToken);
  });
}
