import { appLink, sendAccountMail } from "~/services/account-mail.server";
import type { DB } from "~/utils/db.server";
import { hashPassword } from "~/utils/password.server";
import type { SignupSchema } from "~/utils/schemas/accounts";
import { ensureActivationCode } from "./device.server";
import { setPassword } from "./password.server";
import { consumeUserToken, createUserToken, findUserToken, revokeUserTokens } from "./user-token.server";
import { getUserByEmail } from "./user.server";
import type { z } from "zod";

export class EmailTakenError extends Error {}

/**
 * Registration (docs/decisions/002-accounts-and-sign-in.md): a new organisation, its admin (unverified until the
 * e-mailed link is followed), a default storage named after the organisation so measuring can
 * start at once, and the organisation's device activation code.
 */
export async function registerOrganization(db: DB, signup: z.infer<typeof SignupSchema>, locale: string) {
  if (await getUserByEmail(db, signup.admin_email)) throw new EmailTakenError();
  const passwordHash = await hashPassword(signup.admin_password);
  const created = await db.transaction().execute(async (trx) => {
    const org = await trx
      .insertInto("organizations")
      .values({
        name: signup.name,
        contact_person: signup.contact_person,
        phone: signup.phone,
        country: signup.country_alpha2,
        features: JSON.stringify([]),
      })
      .executeTakeFirstOrThrow();
    const organizationId = Number(org.insertId);
    const storage = await trx
      .insertInto("storages")
      .values({ organization_id: organizationId, name: signup.name })
      .executeTakeFirstOrThrow();
    await trx
      .updateTable("organizations")
      .set({ default_storage_id: Number(storage.insertId) })
      .where("id", "=", organizationId)
      .execute();
    const user = await trx
      .insertInto("users")
      .values({
        email: signup.admin_email,
        name: signup.contact_person,
        password_hash: passwordHash,
        locale,
        recent_organization_id: organizationId,
        recent_measurement_mode: signup.dashboards[0] ?? "timber",
      })
      .executeTakeFirstOrThrow();
    const userId = Number(user.insertId);
    await trx
      .insertInto("roles")
      .values({
        user_id: userId,
        organization_id: organizationId,
        name: "admin",
        assignable_type: "Organization",
        assignable_id: organizationId,
      })
      .execute();
    return { organizationId, userId };
  });
  await ensureActivationCode(db, { organizationId: created.organizationId });
  await sendVerification(db, created.userId);
  return created;
}

export async function sendVerification(db: DB, userId: number) {
  const user = await db
    .selectFrom("users")
    .select(["email", "locale", "verified_at"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  if (user.verified_at) return false;
  await revokeUserTokens(db, userId, "verification");
  const token = await createUserToken(db, { userId, purpose: "verification" });
  await sendAccountMail("verification", user.email, user.locale, { link: appLink(`/verification?token=${token}`) });
  await db.updateTable("users").set({ verification_sent_at: new Date() }).where("id", "=", userId).execute();
  return true;
}

/** Follows the e-mailed link: the user id it verified, or null for a used, expired or unknown token. */
export async function verifyEmail(db: DB, token: string) {
  const row = await consumeUserToken(db, token, "verification");
  if (!row) return null;
  await db
    .updateTable("users")
    .set({ verified_at: new Date() })
    .where("id", "=", row.user_id)
    .where("verified_at", "is", null)
    .execute();
  return row.user_id;
}

export async function sendPasswordReset(db: DB, email: string) {
  const user = await getUserByEmail(db, email);
  // Unknown addresses get the same answer, so the form does not reveal who has an account.
  if (!user || user.disabled_at) return;
  await revokeUserTokens(db, user.id, "password_reset");
  const token = await createUserToken(db, { userId: user.id, purpose: "password_reset" });
  await sendAccountMail("passwordReset", user.email, user.locale, { link: appLink(`/reset_password/${token}`) });
}

export class InvalidTokenError extends Error {}

/** Reset by the e-mailed token: the token is used up only when the new password is accepted. */
export async function resetPasswordWithToken(db: DB, token: string, password: string) {
  const row = await findUserToken(db, token, "password_reset");
  if (!row) throw new InvalidTokenError();
  await setPassword(db, row.user_id, password);
  if (!(await consumeUserToken(db, token, "password_reset"))) throw new InvalidTokenError();
  return row.user_id;
}

/** Accepting an invitation sets the first password; the invitation proves the address. */
export async function acceptInvitation(db: DB, token: string, password: string) {
  const row = await findUserToken(db, token, "invitation");
  if (!row) throw new InvalidTokenError();
  await setPassword(db, row.user_id, password, { verify: true });
  if (!(await consumeUserToken(db, token, "invitation"))) throw new InvalidTokenError();
  return row.user_id;
}
