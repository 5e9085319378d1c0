import { z } from "zod";

// The spec's password rule: at least 12 characters with an upper-case letter, a lower-case letter,
// a digit and a special character (any symbol or a space). Shared by registration, reset,
// invitation acceptance and password change, on the server and in the live checklist.
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_RULES = [
  { key: "length", test: (v: string) => v.length >= PASSWORD_MIN_LENGTH },
  { key: "upper", test: (v: string) => /\p{Lu}/u.test(v) },
  { key: "lower", test: (v: string) => /\p{Ll}/u.test(v) },
  { key: "digit", test: (v: string) => /\d/.test(v) },
  { key: "special", test: (v: string) => /[^\p{L}\p{N}]/u.test(v) },
] as const;
export type PasswordRuleKey = (typeof PASSWORD_RULES)[number]["key"];

export function unmetPasswordRules(value: string): PasswordRuleKey[] {
  return PASSWORD_RULES.filter((r) => !r.test(value)).map((r) => r.key);
}

export const NewPasswordSchema = z
  .string({ error: "accounts:password.required" })
  .max(1024)
  .superRefine((value, ctx) => {
    for (const key of unmetPasswordRules(value))
      ctx.addIssue({ code: "custom", message: `accounts:password.rule.${key}` });
  });

/** Words of 3+ letters of the company or contact name that the password must not contain (case-insensitive). */
export function nameWordsInPassword(password: string, names: Array<string | null | undefined>): string[] {
  const lower = password.toLowerCase();
  const words = names.flatMap((n) => (n ?? "").toLowerCase().split(/[^\p{L}\p{N}]+/u)).filter((w) => w.length >= 3);
  return [...new Set(words.filter((w) => lower.includes(w)))];
}
