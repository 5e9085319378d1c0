import { z } from "zod";
import { CredentialsSchema } from "./auth";
import { NewPasswordSchema, nameWordsInPassword } from "./password";

// Payloads of the sign-in and account flows (accounts.md section 7), shared by the API routes,
// the conform forms and the tests.

const email = z
  .email({ error: "accounts:validation.email" })
  .max(255)
  .transform((v) => v.trim().toLowerCase());
const confirmation = z.string({ error: "accounts:password.confirmationRequired" });
const otpCode = z.string({ error: "accounts:login.otpRequired" }).trim().min(1, "accounts:login.otpRequired").max(32);

function confirmed<T extends z.ZodRawShape>(shape: T, password: keyof T & string, confirm: keyof T & string) {
  return z.object(shape).superRefine((value: Record<string, unknown>, ctx) => {
    if (value[password] !== value[confirm])
      ctx.addIssue({ code: "custom", path: [confirm], message: "accounts:password.mismatch" });
  });
}

export const OtpLoginApiSchema = z.object({
  credentials: CredentialsSchema,
  otp_code: otpCode,
});

export const ForgotPasswordSchema = z.object({ email });

const resetFields = { new_password: NewPasswordSchema, password_confirmation: confirmation };
/** The reset page's form: the new password twice (the token is the page's URL). */
export const ResetPasswordFormSchema = confirmed(resetFields, "new_password", "password_confirmation");
export const ResetPasswordByTokenSchema = confirmed(
  { token: z.string().min(1).max(200), ...resetFields },
  "new_password",
  "password_confirmation",
);

export const ChangeExpiredPasswordSchema = confirmed(
  {
    email,
    current_password: z
      .string({ error: "accounts:password.currentRequired" })
      .min(1, "accounts:password.currentRequired")
      .max(1024),
    new_password: NewPasswordSchema,
    password_confirmation: confirmation,
  },
  "new_password",
  "password_confirmation",
);

/** POST /logins/reset_password takes either shape. */
export const ResetPasswordApiSchema = z.union([ResetPasswordByTokenSchema, ChangeExpiredPasswordSchema]);

const invitationFields = { password: NewPasswordSchema, password_confirmation: confirmation };
/** The invitation page's form: the password twice (the token is the page's URL). */
export const AcceptInvitationFormSchema = confirmed(invitationFields, "password", "password_confirmation");
export const AcceptInvitationSchema = confirmed(
  { invitation_token: z.string().min(1).max(200), ...invitationFields },
  "password",
  "password_confirmation",
);

export const INDUSTRIES = [
  "sawmill",
  "forest_owner",
  "forestry_company",
  "pulp_mill",
  "container_exporter",
  "timber_trader",
  "other",
] as const;
export const DASHBOARDS = ["timber", "truck", "container", "lumber"] as const;
export const COUNTRY_CODES = [
  "EE",
  "FI",
  "LV",
  "LT",
  "SE",
  "NO",
  "DK",
  "DE",
  "PL",
  "FR",
  "ES",
  "PT",
  "IT",
  "AT",
  "BE",
  "NL",
  "LU",
  "IE",
  "CZ",
  "SK",
  "SI",
  "HR",
  "HU",
  "RO",
  "BG",
  "GR",
  "CY",
  "MT",
  "GB",
  "CH",
  "UA",
  "GE",
  "RU",
  "US",
  "CA",
  "MX",
  "BR",
  "CL",
  "UY",
  "AR",
  "JP",
  "IN",
  "CN",
  "AU",
  "NZ",
  "ZA",
] as const;

/** Step 1 of the registration form: the organisation. */
export const SignupStep1Schema = z.object({
  name: z.string({ error: "accounts:register.nameRequired" }).trim().min(1, "accounts:register.nameRequired").max(255),
  contact_person: z
    .string({ error: "accounts:register.contactRequired" })
    .trim()
    .min(1, "accounts:register.contactRequired")
    .max(255),
  industry: z.enum(INDUSTRIES, { error: "accounts:register.industryRequired" }),
  country_alpha2: z.enum(COUNTRY_CODES, { error: "accounts:register.countryRequired" }),
});

const dashboards = z.array(z.enum(DASHBOARDS)).max(4).default(["timber"]);

/** The registration form's first step: the organisation and the dashboards it wants. */
export const SignupStep1FormSchema = SignupStep1Schema.extend({ dashboards });

const signupShape = {
  ...SignupStep1Schema.shape,
  phone: z
    .string({ error: "accounts:register.phoneRequired" })
    .trim()
    .min(5, "accounts:register.phoneRequired")
    .max(64)
    .regex(/^[+0-9 ()-]+$/, "accounts:register.phoneInvalid"),
  admin_email: email,
  admin_password: NewPasswordSchema,
  dashboards,
};

function signupRefine(
  value: { name: string; contact_person: string; admin_password: string; admin_password_confirmation?: string },
  ctx: z.RefinementCtx,
) {
  if (value.admin_password_confirmation !== undefined && value.admin_password !== value.admin_password_confirmation) {
    ctx.addIssue({ code: "custom", path: ["admin_password_confirmation"], message: "accounts:password.mismatch" });
  }
  if (nameWordsInPassword(value.admin_password, [value.name, value.contact_person]).length > 0) {
    ctx.addIssue({ code: "custom", path: ["admin_password"], message: "accounts:password.containsName" });
  }
}

/** POST /registration {signup}: the confirmation is optional for API clients, required by the form. */
export const SignupSchema = z
  .object({ ...signupShape, admin_password_confirmation: z.string().optional() })
  .superRefine(signupRefine);
export const RegistrationApiSchema = z.object({ signup: SignupSchema });
export const SignupFormSchema = z
  .object({ ...signupShape, admin_password_confirmation: confirmation })
  .superRefine(signupRefine);

/** POST and DELETE /two_factors: a code of the new secret, or the owner's proof (password or current code). */
export const TwoFactorSchema = z.object({
  otp_code: z.string().max(32).optional(),
  password: z.string().max(1024).optional(),
});

/** The account screen's "confirm two-factor" form: a code of the new secret (POST /two_factors). */
export const TwoFactorConfirmFormSchema = z.object({ otp_code: otpCode });

/** The account screen's "turn two-factor off" form: one field for the password or a current code (DELETE /two_factors). */
export const TwoFactorProofFormSchema = z.object({
  proof: z
    .string({ error: "accounts:twoFactor.proofRequired" })
    .trim()
    .min(1, "accounts:twoFactor.proofRequired")
    .max(1024),
});
