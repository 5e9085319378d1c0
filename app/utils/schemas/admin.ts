import { z } from "zod";
import { NewPasswordSchema } from "./password";

// Payloads of the organisation administration (users, roles, organisation).

const email = z
  .email({ error: "accounts:validation.email" })
  .max(255)
  .transform((v) => v.trim().toLowerCase());

/** The invite form's fields (/users/new); POST /users/invite_user wraps them in `invite`. */
export const InviteFieldsSchema = z.object({ email });
export const InviteSchema = z.object({ invite: InviteFieldsSchema });

const userName = z
  .string({ message: "accounts:settings.nameRequired" })
  .trim()
  .min(1, "accounts:settings.nameRequired")
  .max(255);

/** The user screen's profile form: the name rule of PATCH /users/{id}. */
export const UserRenameSchema = z.object({ name: userName });

/** PATCH /users/{id}: an admin renames another user; the user changes their own password and expiry toggle. */
export const UserPatchSchema = z.object({
  user: z
    .object({
      name: userName.optional(),
      current_password: z.string().max(1024).optional(),
      password: NewPasswordSchema.optional(),
      password_confirmation: z.string().max(1024).optional(),
      password_expiry: z.boolean().optional(),
    })
    .strict()
    .superRefine(passwordChangeRules),
});

type PasswordChange = { current_password?: string; password?: string; password_confirmation?: string };
/** A new password needs its confirmation and the current password (PATCH /users/{id} and the account screen). */
function passwordChangeRules(u: PasswordChange, ctx: z.RefinementCtx) {
  if (u.password !== undefined && u.password !== u.password_confirmation) {
    ctx.addIssue({ code: "custom", path: ["password_confirmation"], message: "accounts:password.mismatch" });
  }
  if (u.password !== undefined && !u.current_password) {
    ctx.addIssue({ code: "custom", path: ["current_password"], message: "accounts:password.currentRequired" });
  }
}

/**
 * The account screen's password form: PATCH /users/{id}'s password fields and rules, the expiry
 * toggle as a checkbox; a new password or a changed toggle (`expiryNow` is the stored one) is required.
 */
export function passwordChangeFormSchema(expiryNow: boolean) {
  return z
    .object({
      current_password: z.string().max(1024).optional(),
      password: NewPasswordSchema.optional(),
      password_confirmation: z.string().max(1024).optional(),
      password_expiry: z.boolean().optional(),
    })
    .superRefine((u, ctx) => {
      passwordChangeRules(u, ctx);
      if (u.password === undefined && !!u.password_expiry === expiryNow)
        ctx.addIssue({ code: "custom", path: ["password"], message: "accounts:password.required" });
    });
}

export const ASSIGNABLE_ROLES = ["viewer", "measurer", "admin"] as const;
export const ROLE_RESOURCE_TYPES = ["Organization", "Storage", "StorageGroup"] as const;
const id = z.coerce.number().int().positive();
const roleName = z.enum(ASSIGNABLE_ROLES, { error: "accounts:roles.nameRequired" });

/** POST /roles: role{name, user_id} plus one of organization_id, storage_id, storage_group_id (beside role or inside it). */
export const RoleCreateSchema = z
  .object({
    role: z.object({
      name: roleName,
      user_id: id,
      organization_id: id.optional(),
      storage_id: id.optional(),
      storage_group_id: id.optional(),
    }),
    organization_id: id.optional(),
    storage_id: id.optional(),
    storage_group_id: id.optional(),
  })
  .transform((v, ctx) => {
    const targets = [
      ["Organization", v.organization_id ?? v.role.organization_id],
      ["Storage", v.storage_id ?? v.role.storage_id],
      ["StorageGroup", v.storage_group_id ?? v.role.storage_group_id],
    ].filter(([, t]) => t !== undefined) as Array<["Organization" | "Storage" | "StorageGroup", number]>;
    if (targets.length !== 1) {
      ctx.addIssue({ code: "custom", path: ["resource"], message: "accounts:roles.resourceRequired" });
      return z.NEVER;
    }
    return { name: v.role.name, userId: v.role.user_id, type: targets[0][0], resourceId: targets[0][1] };
  });

/** The user screen's add-role form: the role, what it is on (type and id); `roleFormPayload` makes it POST /roles. */
export const RoleFormSchema = z.object({
  role_name: roleName,
  resource_type: z.enum(ROLE_RESOURCE_TYPES, { error: "accounts:roles.resourceRequired" }),
  resource_id: z.coerce
    .number({ error: "accounts:roles.resourceRequired" })
    .int("accounts:roles.resourceRequired")
    .positive("accounts:roles.resourceRequired"),
});
const ROLE_TARGET_KEYS = {
  Organization: "organization_id",
  Storage: "storage_id",
  StorageGroup: "storage_group_id",
} as const;
export function roleFormPayload(userId: number, value: z.infer<typeof RoleFormSchema>) {
  return {
    role: { name: value.role_name, user_id: userId },
    [ROLE_TARGET_KEYS[value.resource_type]]: value.resource_id,
  };
}

// EU VAT numbers: the country prefix, then the national pattern (spaces, dots and dashes ignored).
const EU_VAT =
  /^(ATU\d{8}|BE[01]\d{9}|BG\d{9,10}|CY\d{8}[A-Z]|CZ\d{8,10}|DE\d{9}|DK\d{8}|EE\d{9}|EL\d{9}|ES[A-Z0-9]\d{7}[A-Z0-9]|FI\d{8}|FR[A-HJ-NP-Z0-9]{2}\d{9}|HR\d{11}|HU\d{8}|IE\d[A-Z0-9+*]\d{5}[A-Z]{1,2}|IT\d{11}|LT(\d{9}|\d{12})|LU\d{8}|LV\d{11}|MT\d{8}|NL\d{9}B\d{2}|PL\d{10}|PT\d{9}|RO\d{2,10}|SE\d{12}|SI\d{8}|SK\d{10}|XI(\d{9}|\d{12}))$/;
export function normalizeVat(value: string) {
  return value.replace(/[\s.-]/g, "").toUpperCase();
}

/** Optional text; `max` is its column's size (organizations.*). */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((v) => (v === "" ? null : v))
    .nullable()
    .optional();

export const OrganizationFieldsSchema = z
  .object({
    name: z.string().trim().min(1, "accounts:organization.nameRequired").max(255).optional(),
    address: optionalText(255),
    city: optionalText(255),
    postal_code: optionalText(32),
    vat_code: z
      .string()
      .max(32)
      .transform(normalizeVat)
      .refine((v) => v === "" || EU_VAT.test(v), "accounts:organization.vatInvalid")
      .transform((v) => (v === "" ? null : v))
      .nullable()
      .optional(),
    invoice_email: z
      .union([z.literal(""), z.email({ error: "accounts:validation.email" }).max(255)])
      .transform((v) => (v === "" ? null : v))
      .nullable()
      .optional(),
    default_storage_id: z.coerce.number().int().positive().nullable().optional(),
    contact_person: optionalText(255),
    phone: optionalText(64),
  })
  .strict();

const org = OrganizationFieldsSchema.shape;
/**
 * The organisation settings form: the API's fields, the name required; a field left empty (conform
 * sends nothing for it) clears the stored value. Unknown fields (the form's intent) are dropped.
 */
export const OrganizationFormSchema = z.object({
  name: z
    .string({ error: "accounts:organization.nameRequired" })
    .trim()
    .min(1, "accounts:organization.nameRequired")
    .max(255),
  address: org.address.default(null),
  city: org.city.default(null),
  postal_code: org.postal_code.default(null),
  vat_code: org.vat_code.default(null),
  invoice_email: org.invoice_email.default(null),
  default_storage_id: org.default_storage_id.default(null),
  contact_person: org.contact_person.default(null),
  phone: org.phone.default(null),
});

/** PATCH /organizations/{id}: the fields, wrapped in organization{} or flat. */
export const OrganizationPatchSchema = z.preprocess(
  (body) =>
    body && typeof body === "object" && "organization" in body
      ? (body as { organization: unknown }).organization
      : body,
  OrganizationFieldsSchema,
);
