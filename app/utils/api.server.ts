import { json } from "@remix-run/node";
import { issuesToErrors, notFound } from "./errors";
import type { z } from "zod";

// Helpers for the JSON resource routes under /api/web_app: one error shape everywhere.

// The one notFound is the error family's; re-exported for the API routes that import it from here.
export { notFound };

export function methodNotAllowed(): never {
  throw json({ error: "method_not_allowed" }, { status: 405 });
}

/** Field errors keyed by the payload path, e.g. {"user.locale": ["Invalid option"]}. */
export function fieldErrors(error: z.ZodError) {
  return issuesToErrors(error.issues);
}

const INVALID_FORM = { error: "invalid_body", errors: { _: ["The body is not a readable form"] } };

/**
 * The body of an API call: JSON, or a form (the screens' plain posts). A body that cannot be read
 * answers 400; its size was already limited by the server (server/body-limit.ts, 413).
 */
export async function readJson(request: Request): Promise<unknown> {
  const type = request.headers.get("Content-Type") ?? "";
  if (type.includes("form")) {
    try {
      return Object.fromEntries(await request.formData());
    } catch {
      throw json(INVALID_FORM, { status: 400 });
    }
  }
  const text = await request.text();
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw json({ error: "invalid_json", errors: { _: ["Body is not valid JSON"] } }, { status: 400 });
  }
}

/** Parses a JSON body with the payload's one schema; 422 with field errors when it does not fit. */
export async function parseBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  const result = schema.safeParse(await readJson(request));
  if (!result.success) {
    throw json({ error: "validation_failed", errors: fieldErrors(result.error) }, { status: 422 });
  }
  return result.data;
}

export function parseId(value: string | undefined): number {
  if (!value || !/^\d{1,18}$/.test(value)) notFound();
  return Number(value);
}
