import type { Database } from "#db/schema";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import type { Transaction } from "kysely";

// A shipment by its number (docs/decisions/023-shipments.md), alone so the truck and shipment
// models can both attach measurements without importing each other.

type Executor = DB | Transaction<Database>;

/** The shipment with this number in the organisation, made on first use (a race inserts once). */
export async function findOrCreateShipment(db: Executor, ctx: Pick<AuthContext, "organizationId">, number: string) {
  const value = number.trim();
  const find = () =>
    db
      .selectFrom("shipments")
      .select("id")
      .where("organization_id", "=", ctx.organizationId)
      .where("number", "=", value)
      .executeTakeFirst();
  const found = await find();
  if (found) return found.id;
  await db.insertInto("shipments").ignore().values({ organization_id: ctx.organizationId, number: value }).execute();
  return (await find())!.id;
}
