import { json } from "@remix-run/node";
import { PictureCreditError } from "~/models/billing.server";
import { PhotoRejectedError } from "~/models/measurement-photo.server";
import { DefaultStorageError } from "~/models/storage.server";
import { ForbiddenError, LockedError, NotFoundError, TimberValidationError } from "~/models/timber.server";

/** The timber models' expected failures as the API's answers (422 field errors, 404, 403, 409). */
export async function timberApi<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    const answer = timberErrorResponse(error);
    if (answer) throw answer;
    throw error;
  }
}

export function timberErrorResponse(error: unknown): Response | null {
  if (error instanceof TimberValidationError) return json({ error: "validation_failed", errors: error.errors }, { status: 422 });
  if (error instanceof NotFoundError) return json({ error: "not_found" }, { status: 404 });
  if (error instanceof ForbiddenError) return json({ error: "forbidden" }, { status: 403 });
  if (error instanceof LockedError) return json({ error: "locked", message: "The measurement is part of an inventory" }, { status: 409 });
  if (error instanceof DefaultStorageError) return json({ error: "default_storage", errors: { id: ["timber:errors.defaultStorage"] } }, { status: 422 });
  if (error instanceof PictureCreditError) return json({ error: error.code }, { status: error.status });
  if (error instanceof PhotoRejectedError) return json({ error: "validation_failed", errors: { photo: [`timber:errors.photo.${error.reason}`] } }, { status: 422 });
  return null;
}

/** "a,b" or ["a","b"] to a list. */
export function listParam(value: string | string[] | null | undefined) {
  if (!value) return [];
  return (Array.isArray(value) ? value : value.split(",")).map((s) => s.trim()).filter(Boolean);
}
