import type { UserTokenPurpose } from "#db/schema";
import type { DB } from "~/utils/db.server";
import { hashToken, randomToken } from "~/utils/token.server";

// One-time tokens sent by e-mail (or held by the login form between the password and the code).
// Only SHA-256 hashes are stored; a token is used once and expires. Lifetimes: docs/decisions/002-accounts-and-sign-in.md.
export const TOKEN_TTL_SECONDS: Record<UserTokenPurpose, number> = {
  password_reset: 60 * 60,
  invitation: 7 * 24 * 60 * 60,
  verification: 3 * 24 * 60 * 60,
  login_otp: 5 * 60,
  membership: 7 * 24 * 60 * 60,
};

export async function createUserToken(
  db: DB,
  input: { userId: number; purpose: UserTokenPurpose; organizationId?: number | null },
) {
  const token = randomToken();
  await db
    .insertInto("user_tokens")
    .values({
      user_id: input.userId,
      organization_id: input.organizationId ?? null,
      purpose: input.purpose,
      token_hash: hashToken(token),
      expires_at: new Date(Date.now() + TOKEN_TTL_SECONDS[input.purpose] * 1000),
    })
    .execute();
  return token;
}

/** The live (unused, unexpired) token row, without using it up. */
export async function findUserToken(db: DB, token: string | null | undefined, purpose: UserTokenPurpose) {
  if (!token || token.length > 200) return undefined;
  return db
    .selectFrom("user_tokens")
    .selectAll()
    .where("token_hash", "=", hashToken(token))
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .where("expires_at", ">", new Date())
    .executeTakeFirst();
}

/** Uses the token up; only the first of two racing requests gets the row. */
export async function consumeUserToken(db: DB, token: string | null | undefined, purpose: UserTokenPurpose) {
  const row = await findUserToken(db, token, purpose);
  if (!row) return undefined;
  const result = await db
    .updateTable("user_tokens")
    .set({ used_at: new Date() })
    .where("id", "=", row.id)
    .where("used_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? row : undefined;
}

/** A new invitation of one organisation replaces only that organisation's earlier link. */
export async function revokeOrganizationTokens(
  db: DB,
  userId: number,
  purpose: UserTokenPurpose,
  organizationId: number,
) {
  await db
    .updateTable("user_tokens")
    .set({ used_at: new Date() })
    .where("user_id", "=", userId)
    .where("purpose", "=", purpose)
    .where("organization_id", "=", organizationId)
    .where("used_at", "is", null)
    .execute();
}

/** A new reset or verification link makes the older ones of the same purpose useless. */
export async function revokeUserTokens(db: DB, userId: number, purpose: UserTokenPurpose) {
  await db
    .updateTable("user_tokens")
    .set({ used_at: new Date() })
    .where("user_id", "=", userId)
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .execute();
}
