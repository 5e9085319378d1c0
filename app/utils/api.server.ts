import { json } from "@remix-run/node";
import type { z } from "zod";

// Helpers for the JSON resource routes under /api/web_app: one error shape everywhere.

export function notFound(): never {
  throw json({ error: "not_found" }, { status: 404 });
}

export function methodNotAllowed(): never {
  throw json({ error: "method_not_allowed" }, { status: 405 });
}

/** Field errors keyed by the payload path, e.g. {"user.locale": ["Invalid option"]}. */
export function fieldErrors(error: z.ZodError) {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_";
    (errors[key] ??= []).push(issue.message);
  }
  return errors;
}

export async function readJson(request: Request): Promise<unknown> {
  const type = request.headers.get("Content-Type") ?? "";
  if (type.includes("form")) return Object.fromEntries(await request.formData());
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
