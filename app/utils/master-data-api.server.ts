import { json } from "@remix-run/node";
import { ownership } from "~/models/master-data.server";
import { forbidden } from "~/utils/errors";
import { notFound } from "./api.server";
import { db } from "./db.server";
import type { AuthContext } from "./auth-context";

/** Tenancy first (another organisation's row is 404), then built-in rows are read-only (403). */
export async function requireOwnRow(
  ctx: AuthContext,
  table: "wood_types" | "wood_qualities" | "culls" | "assortments",
  id: number,
) {
  const own = await ownership(db(), ctx, table, id);
  if (own === "not_found") notFound();
  if (own === "built_in") forbidden("built_in");
}

export function fieldError(field: string, message: string) {
  return json({ error: "validation_failed", errors: { [field]: [message] } }, { status: 422 });
}
