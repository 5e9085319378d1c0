import { sql } from "kysely";
import type { User } from "#db/schema";
import type { DB } from "~/utils/db.server";
import { verifyPassword } from "~/utils/password.server";
import type { LoginErrorCode } from "~/utils/schemas/auth";
import { hashBackupCode, verifyTotp } from "~/utils/totp.server";
import { listOrganizationsOfUser } from "./organization.server";
import { getUserByEmail } from "./user.server";

export class LoginError extends Error {
  constructor(public code: LoginErrorCode) {
    super(code);
  }
}

// Lockout (docs/decisions/002-accounts-and-sign-in.md): 5 failed attempts in a row (wrong password or wrong one-time
// code) lock the account for 15 minutes; while locked even the right password answers ACCOUNT_LOCKED.
export const MAX_FAILED_LOGINS = 5;
export const LOCK_MINUTES = 15;

// A hash of a random password, so an unknown email costs the same time as a wrong password.
const DUMMY_HASH = "scrypt$32768$8$1$Xc2mB4b1wD7v0nq8kz3bLQ$7dQ6oVbmYc8b1f8m1JrJ0sJbZ1n2m3o4p5q6r7s8t9E";

// Counted in the database, not from the row read before the (slow) password check: parallel
// wrong passwords each add one, so 20 at once lock the account instead of counting 1.
// A failure after an expired lock starts a new series.
export async function recordFailure(db: DB, user: Pick<User, "id">) {
  const now = new Date();
  await db
    .updateTable("users")
    .set((eb) => ({
      failed_login_count: sql<number>`IF(${eb.ref("locked_until")} IS NOT NULL AND ${eb.ref("locked_until")} <= ${now}, 1, ${eb.ref("failed_login_count")} + 1)`,
      locked_until: sql<Date | null>`IF(${eb.ref("locked_until")} <= ${now}, NULL, ${eb.ref("locked_until")})`,
    }))
    .where("id", "=", user.id)
    .execute();
  const row = await db
    .selectFrom("users")
    .select("failed_login_count")
    .where("id", "=", user.id)
    .executeTakeFirstOrThrow();
  if (row.failed_login_count >= MAX_FAILED_LOGINS) {
    await db
      .updateTable("users")
      .set({ locked_until: new Date(now.getTime() + LOCK_MINUTES * 60_000) })
      .where("id", "=", user.id)
      .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", now)]))
      .execute();
  }
}

/** The lock as it is now (another request may have set it while this one checked a password). */
export async function isLockedNow(db: DB, userId: number) {
  const row = await db.selectFrom("users").select("locked_until").where("id", "=", userId).executeTakeFirst();
  return !!row?.locked_until && row.locked_until.getTime() > Date.now();
}

function isLocked(user: User) {
  return !!user.locked_until && user.locked_until.getTime() > Date.now();
}

/** Checks email and password (lockout included); throws LoginError with the spec's code. */
export async function verifyCredentials(db: DB, email: string, password: string): Promise<User> {
  const user = await getUserByEmail(db, email);
  const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
  if (!user || !user.password_hash) throw new LoginError("INVALID_EMAIL_OR_PASSWORD");
  if (!ok) {
    // Every wrong password counts, also while locked, so the count tells how many were tried.
    await recordFailure(db, user);
    throw new LoginError(isLocked(user) ? "ACCOUNT_LOCKED" : "INVALID_EMAIL_OR_PASSWORD");
  }
  if (isLocked(user) || (await isLockedNow(db, user.id))) throw new LoginError("ACCOUNT_LOCKED");
  if (user.disabled_at || (await listOrganizationsOfUser(db, user.id)).length === 0)
    throw new LoginError("CONTACT_SUPPORT");
  return user;
}

export type LoginOutcome =
  { status: "ok"; user: User } | { status: "otp_required"; user: User } | { status: "password_expired"; user: User };

/**
 * The login state machine: the password first (lockout, CONTACT_SUPPORT), then an expired password
 * (400 in the API), then the one-time code for two-factor accounts (202 until it is given).
 * A code is a TOTP or one of the unused backup codes (used up here).
 */
export async function attemptLogin(
  db: DB,
  input: { email: string; password: string; otpCode?: string },
): Promise<LoginOutcome> {
  const user = await verifyCredentials(db, input.email, input.password);
  if (user.password_expiry && user.password_expiry.getTime() <= Date.now()) return { status: "password_expired", user };
  if (user.otp_enabled && user.otp_secret) {
    if (input.otpCode === undefined) return { status: "otp_required", user };
    if (!(await checkOtpCode(db, user, input.otpCode))) {
      await recordFailure(db, user);
      throw new LoginError("INVALID_OTP_CODE");
    }
  }
  await db.updateTable("users").set({ failed_login_count: 0, locked_until: null }).where("id", "=", user.id).execute();
  return { status: "ok", user };
}

/** A TOTP of the account's secret, or an unused backup code (removed once used). */
export async function checkOtpCode(db: DB, user: User, code: string) {
  if (user.otp_secret && verifyTotp(user.otp_secret, code)) return true;
  const hash = hashBackupCode(code);
  const codes = user.otp_backup_codes ?? [];
  if (!codes.includes(hash)) return false;
  await db
    .updateTable("users")
    .set({ otp_backup_codes: JSON.stringify(codes.filter((c) => c !== hash)) })
    .where("id", "=", user.id)
    .execute();
  return true;
}

/** The second step of a web login (the password was checked when the pending token was made). */
export async function completeOtpLogin(db: DB, userId: number, code: string): Promise<User> {
  const user = await db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
  if (isLocked(user)) throw new LoginError("ACCOUNT_LOCKED");
  if (!(await checkOtpCode(db, user, code))) {
    await recordFailure(db, user);
    throw new LoginError("INVALID_OTP_CODE");
  }
  await db.updateTable("users").set({ failed_login_count: 0, locked_until: null }).where("id", "=", user.id).execute();
  return user;
}
