import QRCode from "qrcode";
import type { DB } from "~/utils/db.server";
import { hashBackupCode, newBackupCodes, newTotpSecret, totpUrl } from "~/utils/totp.server";

/**
 * Enables two-factor sign-in: a new TOTP secret and 10 single-use backup codes (shown once,
 * stored hashed). Enabling again replaces both.
 */
export async function enableTwoFactor(db: DB, user: { id: number; email: string }) {
  const secret = newTotpSecret();
  const backupCodes = newBackupCodes();
  await db
    .updateTable("users")
    .set({ otp_secret: secret, otp_enabled: true, otp_backup_codes: JSON.stringify(backupCodes.map(hashBackupCode)), updated_at: new Date() })
    .where("id", "=", user.id)
    .execute();
  const url = totpUrl(secret, user.email);
  return { url, backup_codes: backupCodes, qr_svg: await QRCode.toString(url, { type: "svg", margin: 1 }) };
}

export async function disableTwoFactor(db: DB, userId: number) {
  await db.updateTable("users").set({ otp_secret: null, otp_enabled: false, otp_backup_codes: null, updated_at: new Date() }).where("id", "=", userId).execute();
}
