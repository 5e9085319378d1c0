import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";

type Ctx = Pick<AuthContext, "organizationId">;

/** The newest measurements of the organisation (the timber screen until its dashboard lands). */
export async function listRecentMeasurements(db: DB, ctx: Ctx, opts: { limit: number }) {
  return db
    .selectFrom("measurements as m")
    .innerJoin("storages as s", "s.id", "m.storage_id")
    .select([
      "m.id",
      "m.taken_at",
      "m.logs_count",
      "m.volume",
      "m.log_length",
      "m.volume_formula",
      "m.photo_status",
      "m.photo_thumbnail_key",
      "s.id as storage_id",
      "s.name as storage_name",
    ])
    .where("m.organization_id", "=", ctx.organizationId)
    .where("m.deleted_at", "is", null)
    .orderBy("m.taken_at", "desc")
    .orderBy("m.id", "desc")
    .limit(opts.limit)
    .execute();
}

export async function countMeasurements(db: DB, ctx: Ctx) {
  const row = await db
    .selectFrom("measurements")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("organization_id", "=", ctx.organizationId)
    .where("deleted_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
