import { z } from "zod";

// One schema per payload, shared by the /login form, POST /api/web_app/logins and the tests.
export const CredentialsSchema = z.object({
  email: z
    .email({ error: "auth:validation.email" })
    .max(255)
    .transform((v) => v.trim().toLowerCase()),
  password: z
    .string({ error: "auth:validation.passwordRequired" })
    .min(1, "auth:validation.passwordRequired")
    .max(1024),
});

export const LoginFormSchema = CredentialsSchema.extend({
  redirectTo: z.string().optional(),
});

export const LoginApiSchema = z.object({ credentials: CredentialsSchema });

/** The spec's login error codes; each has its own message (auth:errors.CODE). */
export const LOGIN_ERROR_CODES = [
  "INVALID_EMAIL_OR_PASSWORD",
  "ACCOUNT_LOCKED",
  "CONTACT_SUPPORT",
  "INVALID_OTP_CODE",
] as const;
export type LoginErrorCode = (typeof LOGIN_ERROR_CODES)[number];
