import { json } from "@remix-run/node";
import { InvalidTokenError } from "~/models/account.server";
import { PasswordReusedError } from "~/models/password.server";
import { fieldErrors } from "~/utils/api.server";
import { redirectWithToast } from "~/utils/toast.server";
import type { z } from "zod";

export type SetPasswordResult = { code: string | null; errors: Record<string, string[]> };

/**
 * The action of the pages that set a password from an e-mailed token (reset, invitation): the
 * spec's codes for a bad token, a reused password and one that breaks the rules.
 */
export async function setPasswordFromToken<S extends z.ZodType>(
  request: Request,
  opts: {
    schema: S;
    /** The form's fields plus the token from the URL, as the schema expects them. */
    input: (form: Record<string, FormDataEntryValue>) => unknown;
    passwordField: string;
    tokenErrorCode: string;
    apply: (data: z.infer<S>) => Promise<unknown>;
    successKey: string;
  },
) {
  const form = Object.fromEntries(await request.formData());
  const parsed = opts.schema.safeParse(opts.input(form));
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    const rule = errors[opts.passwordField]?.some((m) => m.startsWith("accounts:password.rule"));
    return json<SetPasswordResult>(
      { code: rule ? "PASSWORD_DOES_NOT_MEET_REQUIREMENTS" : null, errors },
      { status: 422 },
    );
  }
  try {
    await opts.apply(parsed.data);
  } catch (error) {
    if (error instanceof InvalidTokenError)
      return json<SetPasswordResult>({ code: opts.tokenErrorCode, errors: {} }, { status: 400 });
    if (error instanceof PasswordReusedError)
      return json<SetPasswordResult>({ code: "PASSWORD_ALREADY_USED", errors: {} }, { status: 422 });
    throw error;
  }
  return redirectWithToast("/login", { type: "success", key: opts.successKey });
}
