import { json } from "@remix-run/node";
import { ownership } from "~/models/master-data.server";
import { notFound } from "./api.server";
import type { AuthContext } from "./auth.server";
import { db } from "./db.server";

/** Tenancy first (another organisation's row is 404), then built-in rows are read-only (403). */
export async function requireOwnRow(ctx: AuthContext, table: "wood_types" | "wood_qualities" | "culls" | "assortments", id: number) {
  const own = await ownership(db(), ctx, table, id);
  if (own === "not_found") notFound();
  if (own === "built_in") throw json({ error: "built_in", message: "Built-in rows cannot be changed" }, { status: 403 });
}

export function fieldError(field: string, message: string) {
  return json({ error: "validation_failed", errors: { [field]: [message] } }, { status: 422 });
}
