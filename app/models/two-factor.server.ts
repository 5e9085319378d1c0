import QRCode from "qrcode";
import type { User } from "#db/schema";
import type { DB } from "~/utils/db.server";
import { verifyPassword } from "~/utils/password.server";
import { hashBackupCode, newBackupCodes, newTotpSecret, totpUrl, verifyTotp } from "~/utils/totp.server";
import { checkOtpCode, isLockedNow, recordFailure } from "./login.server";

// Two-factor set-up in two steps: a new secret waits in otp_pending_secret (its scan code is
// shown) and is switched on only with a code the authenticator app made from it, so an account
// cannot be locked by a secret nobody holds. Turning it off, or replacing it, asks the owner
// for the password or a current code (a borrowed signed-in browser is not enough).

async function scanCode(secret: string, email: string) {
  const url = totpUrl(secret, email);
  return { url, qr_svg: await QRCode.toString(url, { type: "svg", margin: 1 }) };
}

export async function startTwoFactorSetup(db: DB, user: Pick<User, "id" | "email">) {
  const secret = newTotpSecret();
  await db.updateTable("users").set({ otp_pending_secret: secret }).where("id", "=", user.id).execute();
  return scanCode(secret, user.email);
}

/** The scan code of the set-up under way (shown again after a wrong code), or null. */
export async function pendingTwoFactorSetup(db: DB, user: Pick<User, "id" | "email">) {
  const row = await db.selectFrom("users").select("otp_pending_secret").where("id", "=", user.id).executeTakeFirst();
  return row?.otp_pending_secret ? scanCode(row.otp_pending_secret, user.email) : null;
}

/**
 * Switches two-factor on when `code` comes from the pending secret: the secret becomes the
 * account's, with 10 new backup codes (shown once, stored hashed). Null for a wrong code or no set-up.
 */
export async function confirmTwoFactor(db: DB, user: Pick<User, "id" | "email">, code: string) {
  const row = await db.selectFrom("users").select("otp_pending_secret").where("id", "=", user.id).executeTakeFirst();
  const secret = row?.otp_pending_secret;
  if (!secret || !verifyTotp(secret, code)) return null;
  const backupCodes = newBackupCodes();
  const result = await db
    .updateTable("users")
    .set({
      otp_secret: secret,
      otp_pending_secret: null,
      otp_enabled: true,
      otp_backup_codes: JSON.stringify(backupCodes.map(hashBackupCode)),
      updated_at: new Date(),
    })
    .where("id", "=", user.id)
    .where("otp_pending_secret", "=", secret)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return null;
  return { ...(await scanCode(secret, user.email)), backup_codes: backupCodes };
}

/**
 * The owner's proof: the account's password, or a current code (TOTP or unused backup code).
 * A wrong proof counts towards the login lockout, so a borrowed session cannot guess the password.
 */
export async function provesOwner(db: DB, user: User, proof: { password?: string | null; otp_code?: string | null }) {
  if (await isLockedNow(db, user.id)) return false;
  if (proof.password && user.password_hash && (await verifyPassword(proof.password, user.password_hash))) return true;
  if (proof.otp_code && user.otp_enabled && (await checkOtpCode(db, user, proof.otp_code))) return true;
  if (proof.password || proof.otp_code) await recordFailure(db, user);
  return false;
}

export async function disableTwoFactor(db: DB, userId: number) {
  await db
    .updateTable("users")
    .set({
      otp_secret: null,
      otp_pending_secret: null,
      otp_enabled: false,
      otp_backup_codes: null,
      updated_at: new Date(),
    })
    .where("id", "=", userId)
    .execute();
}
