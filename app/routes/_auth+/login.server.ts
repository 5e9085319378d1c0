import { createMemorySessionStorage } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { attemptLogin, type LoginOutcome } from "~/models/login.server";
import { db } from "~/utils/db.server";
import { CredentialsSchema } from "~/utils/schemas/auth";

// remix-auth runs the password step of the /login form and answers the login state machine's
// outcome (signed in, one-time code needed, password expired). It never stores a session
// itself: on success the route creates our own session row, so its storage here is unused.
export const authenticator = new Authenticator<LoginOutcome>(createMemorySessionStorage(), { throwOnError: true });

authenticator.use(
  new FormStrategy(async ({ form }) => {
    const { email, password } = CredentialsSchema.parse(Object.fromEntries(form));
    return attemptLogin(db(), { email, password });
  }),
  "form",
);
