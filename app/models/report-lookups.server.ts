import type { DB } from "~/utils/db.server";

/** A report's organisations as the report shows them: the other side's name, the owner's currency. */
export async function organizationNameAndCurrency(db: DB, organizationId: number) {
  return db
    .selectFrom("organizations")
    .select(["name", "currency"])
    .where("id", "=", organizationId)
    .executeTakeFirst();
}
