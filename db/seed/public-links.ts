import { createPublicLink, publicLinkOf } from "~/models/public-link.server";
import type { DB } from "~/utils/db.server";

// The demo organisation's public links: every storage is shared (as a new storage is), and the
// two newest measurements of each storage too, so the dashboard's "Copy public link", the
// storage page's links to shared measurements and the detail page's dialog all show real pages.
// Run again, it adds nothing (an organisation seeded before links existed gets them once).

export async function seedPublicLinks(db: DB, organizationId: number, opts: { log?: (s: string) => void } = {}) {
  const log = opts.log ?? (() => {});
  const shared = await db
    .selectFrom("public_links")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("kind", "=", "measurement")
    .executeTakeFirst();
  if (shared) return 0;
  const admin = await db
    .selectFrom("roles")
    .innerJoin("users", "users.id", "roles.user_id")
    .select(["users.id", "users.time_zone"])
    .where("roles.organization_id", "=", organizationId)
    .where("roles.name", "=", "admin")
    .orderBy("users.id")
    .executeTakeFirst();
  const maker = { organizationId, userId: admin?.id ?? null, timeZone: admin?.time_zone ?? "Europe/Tallinn" };
  const storages = await db
    .selectFrom("storages")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("deleted_at", "is", null)
    .orderBy("id")
    .execute();
  let measurements = 0;
  for (const s of storages) {
    await createPublicLink(db, maker, "storage", s.id);
    const newest = await db
      .selectFrom("measurements")
      .select("id")
      .where("organization_id", "=", organizationId)
      .where("storage_id", "=", s.id)
      .where("deleted_at", "is", null)
      .orderBy("taken_at", "desc")
      .limit(2)
      .execute();
    for (const m of newest) await createPublicLink(db, maker, "measurement", m.id);
    measurements += newest.length;
  }
  const first = storages[0] ? await publicLinkOf(db, { organizationId }, "storage", storages[0].id) : null;
  log(
    `demo public links: ${storages.length} storages and ${measurements} measurements shared` +
      (first?.path ? ` (e.g. ${first.path})` : ""),
  );
  return storages.length + measurements;
}
