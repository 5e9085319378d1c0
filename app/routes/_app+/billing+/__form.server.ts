import { BillingError } from "~/services/billing/rules.server";
import { redirectWithToast } from "~/utils/toast.server";
import type { z } from "zod";

// The /billing forms: the payload's one schema, and errors as a toast on the same screen.

export class FormError extends Error {
  constructor(public key: string) {
    super(key);
  }
}

export function parseForm<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new FormError(result.error.issues[0]?.message ?? "billing:errors.generic");
  return result.data;
}

/** Runs a form intent; a broken rule or bad input goes back to `back` with an error toast. */
export async function formIntent(back: string, fn: () => Promise<Response>): Promise<Response> {
  try {
    return await fn();
  } catch (error) {
    const key = error instanceof BillingError || error instanceof FormError ? error.key : null;
    if (key)
      return redirectWithToast(back, { type: "error", key: key.startsWith("billing:") ? key : `billing:${key}` });
    throw error;
  }
}
