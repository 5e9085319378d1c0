import { createMemorySessionStorage } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type { User } from "#db/schema";
import { verifyCredentials } from "~/models/login.server";
import { db } from "./db.server";
import { CredentialsSchema } from "./schemas/auth";

// remix-auth runs the credential check of the /login form. It never stores the session itself:
// on success we create our own session row (session.server.ts), so its storage here is unused.
export const authenticator = new Authenticator<User>(createMemorySessionStorage(), { throwOnError: true });

authenticator.use(
  new FormStrategy(async ({ form }) => {
    const { email, password } = CredentialsSchema.parse(Object.fromEntries(form));
    return verifyCredentials(db(), email, password);
  }),
  "form",
);
