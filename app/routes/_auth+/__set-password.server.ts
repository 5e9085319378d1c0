import { parseWithZod } from "@conform-to/zod/v4";
import { json } from "@remix-run/node";
import { InvalidTokenError } from "~/models/account.server";
import { PasswordReusedError } from "~/models/password.server";
import { redirectWithToast } from "~/utils/toast.server";
import type { SubmissionResult } from "@conform-to/react";
import type { z } from "zod";

export type SetPasswordResult = { code: string | null; result?: SubmissionResult<string[]> };

/**
 * The action of the pages that set a password from an e-mailed token (reset, invitation): the
 * form's schema (the token is the URL's), the spec's codes for a bad token, a reused password and
 * one that breaks the rules. The passwords are never sent back.
 */
export async function setPasswordFromToken<S extends z.ZodObject>(
  request: Request,
  opts: {
    schema: S;
    passwordField: string;
    tokenErrorCode: string;
    apply: (data: z.infer<S>) => Promise<unknown>;
    successKey: string;
  },
) {
  const submission = parseWithZod(await request.formData(), { schema: opts.schema });
  const hideFields = Object.keys(opts.schema.shape);
  if (submission.status !== "success") {
    const rule = submission.error?.[opts.passwordField]?.some((m) => m.startsWith("accounts:password.rule"));
    return json<SetPasswordResult>(
      { code: rule ? "PASSWORD_DOES_NOT_MEET_REQUIREMENTS" : null, result: submission.reply({ hideFields }) },
      { status: 422 },
    );
  }
  try {
    await opts.apply(submission.value as z.infer<S>);
  } catch (error) {
    if (error instanceof InvalidTokenError)
      return json<SetPasswordResult>({ code: opts.tokenErrorCode }, { status: 400 });
    if (error instanceof PasswordReusedError)
      return json<SetPasswordResult>(
        { code: "PASSWORD_ALREADY_USED", result: submission.reply({ hideFields }) },
        { status: 422 },
      );
    throw error;
  }
  return redirectWithToast("/login", { type: "success", key: opts.successKey });
}
