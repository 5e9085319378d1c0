import type { User } from "#db/schema";
import type { DB } from "~/utils/db.server";
import { verifyPassword } from "~/utils/password.server";
import type { LoginErrorCode } from "~/utils/schemas/auth";
import { getUserByEmail } from "./user.server";

export class LoginError extends Error {
  constructor(public code: LoginErrorCode) {
    super(code);
  }
}

// A hash of a random password, so an unknown email costs the same time as a wrong password.
const DUMMY_HASH =
  "scrypt$32768$8$1$Xc2mB4b1wD7v0nq8kz3bLQ$7dQ6oVbmYc8b1f8m1JrJ0sJbZ1n2m3o4p5q6r7s8t9E";

/** Checks email and password; throws LoginError with the spec's code. */
export async function verifyCredentials(db: DB, email: string, password: string): Promise<User> {
  const user = await getUserByEmail(db, email);
  const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
  if (!user || !ok) throw new LoginError("INVALID_EMAIL_OR_PASSWORD");
  if (user.locked_until && user.locked_until.getTime() > Date.now()) throw new LoginError("ACCOUNT_LOCKED");
  return user;
}
