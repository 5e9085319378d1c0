import { createHash, randomInt } from "node:crypto";
import { Secret, TOTP } from "otpauth";

// Two-factor sign-in: RFC 6238 codes (30 s, 6 digits, SHA-1: what authenticator apps read) and
// single-use backup codes, of which only hashes are stored.
const ISSUER = "Timber";

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secret: string, label = "account") {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: "SHA1",
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(secret),
  });
}

export function totpUrl(secret: string, email: string) {
  return totp(secret, email).toString();
}

/** One step of clock drift either way is accepted. */
export function verifyTotp(secret: string, code: string) {
  const clean = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(clean)) return false;
  return totp(secret).validate({ token: clean, window: 1 }) !== null;
}

export function currentTotp(secret: string) {
  return totp(secret).generate();
}

const BACKUP_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
export function newBackupCodes(count = 10): string[] {
  return Array.from({ length: count }, () => {
    const raw = Array.from({ length: 10 }, () => BACKUP_ALPHABET[randomInt(BACKUP_ALPHABET.length)]).join("");
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
}

export function hashBackupCode(code: string) {
  return createHash("sha256")
    .update(
      code
        .trim()
        .toLowerCase()
        .replace(/[^a-z0-9]/g, ""),
    )
    .digest("hex");
}
