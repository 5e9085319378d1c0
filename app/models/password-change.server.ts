import type { DB } from "~/utils/db.server";
import { verifyPassword } from "~/utils/password.server";
import { isLockedNow, recordFailure, verifyCredentials } from "./login.server";
import { expiryFromNow, setPassword } from "./password.server";

/** The expired-password form of /login: the current password proves the person (lockout applies). */
export async function changeExpiredPassword(
  db: DB,
  input: { email: string; current_password: string; new_password: string },
) {
  const user = await verifyCredentials(db, input.email, input.current_password);
  await setPassword(db, user.id, input.new_password);
  return user.id;
}

export class WrongCurrentPasswordError extends Error {
  code = "INVALID_CURRENT_PASSWORD" as const;
}

/** Settings: a new password (with the current one) and/or the 30-day expiry toggle. */
export async function changeOwnPassword(
  db: DB,
  userId: number,
  input: { current_password?: string; password?: string; password_expiry?: boolean },
  currentSessionToken: string | null,
) {
  if (input.password) {
    const user = await db
      .selectFrom("users")
      .select("password_hash")
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    // A wrong current password counts towards the lockout, as at sign-in.
    if ((await isLockedNow(db, userId)) || !(await verifyPassword(input.current_password ?? "", user.password_hash))) {
      if (input.current_password) await recordFailure(db, { id: userId });
      throw new WrongCurrentPasswordError();
    }
    await setPassword(db, userId, input.password, { keepSessionToken: currentSessionToken });
  }
  if (input.password_expiry !== undefined) {
    await db
      .updateTable("users")
      .set({ password_expiry: input.password_expiry ? expiryFromNow() : null, updated_at: new Date() })
      .where("id", "=", userId)
      .execute();
  }
}
