import { sql } from "kysely";
import { insertContainerMeasurement } from "~/models/container-measurement.server";
import { createBillOfLading, createContainers } from "~/models/container.server";
import type { MeasurementKind } from "~/models/measurement-kind.server";
import { createPublicLink, publicLinkOf } from "~/models/public-link.server";
import type { FileStorage } from "~/services/file-storage.server";
import { storeOriginalPhoto } from "~/services/photos.server";
import type { DB } from "~/utils/db.server";
import { layoutStack, renderStackJpeg } from "./stack-photo";

// The demo organisation's container exports (docs/decisions/022-containers.md): a contract, two
// bills of lading with three containers each, and container measurements with drawn photos (log
// ends at known sizes and a 1 m reference, so their JAS figures match the picture): two per
// container of the first bill (one bill's first container locked, as sealed), and two not yet in a
// container for the cards' batch actions. The Container plan's feature is given to the demo
// organisation. Run again, it adds nothing.

type EnqueuePhoto = (measurementId: number, kind: MeasurementKind) => Promise<unknown>;

export async function seedContainers(
  db: DB,
  files: FileStorage,
  organizationId: number,
  opts: { enqueuePhoto?: EnqueuePhoto; log?: (s: string) => void } = {},
) {
  const log = opts.log ?? (() => {});
  await sql`UPDATE organizations SET features = JSON_ARRAY_APPEND(features, '$', 'container_measurements')
    WHERE id = ${organizationId} AND NOT JSON_CONTAINS(features, '"container_measurements"')`.execute(db);
  const any = await db
    .selectFrom("bill_of_ladings")
    .select("id")
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
  if (any) {
    await logPublicPages(db, organizationId, log);
    return 0;
  }
  const storage = await db
    .selectFrom("storages")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("deleted_at", "is", null)
    .orderBy("id")
    .executeTakeFirst();
  const admin = await db
    .selectFrom("roles")
    .select("user_id")
    .where("organization_id", "=", organizationId)
    .where("name", "=", "admin")
    .executeTakeFirst();
  if (!storage || !admin) return 0;
  const ctx = {
    organizationId,
    userId: admin.user_id,
    roles: [
      {
        id: 0,
        user_id: admin.user_id,
        organization_id: organizationId,
        name: "admin" as const,
        assignable_type: "Organization" as const,
        assignable_id: organizationId,
      },
    ],
  } as Parameters<typeof createBillOfLading>[1];
  await db.insertInto("container_contracts").values({ organization_id: organizationId, name: "JP-2026-014" }).execute();
  const bills = [
    { name: "MAEU 2611-TYO", containers: ["MSKU 402113-6", "MSKU 402127-1", "TGHU 881920-3"] },
    { name: "COSU 6390-SHA", containers: ["CSNU 700214-9", "CSNU 700215-4", "OOLU 118302-2"] },
  ];
  const containerIds: number[] = [];
  for (const b of bills) {
    const billId = await createBillOfLading(db, ctx, { name: b.name });
    const ids = await createContainers(db, ctx, {
      bill_of_lading_id: billId,
      name: b.containers,
      tare_weight: 2230,
      net_weight: 24500,
    });
    containerIds.push(...ids);
  }
  await db
    .updateTable("containers")
    .set({ seal_number: "EU 5519020", width: "2.35", height: "2.39", weight: "26.7 t" })
    .where("id", "=", containerIds[0]!)
    .execute();
  const now = Date.now();
  let made = 0;
  const targets = [containerIds[0], containerIds[0], containerIds[1], containerIds[1], containerIds[2], null, null];
  for (const [i, containerId] of targets.entries()) {
    const seed = 7000 + i;
    const stack = layoutStack(seed, { minCm: 18, maxCm: 44, pxPerCm: 3 });
    const id = await insertContainerMeasurement(db, ctx, {
      storage_id: storage.id,
      container_id: containerId ?? null,
      taken_at: new Date(now - (i + 1) * 3 * 3600_000),
      measured_at: new Date(now - (i + 1) * 3 * 3600_000 + 60_000),
      log_length: i % 2 ? 3.8 : 4,
      locked_at: containerId === containerIds[0] ? new Date(now - 3600_000) : null,
      logs: stack.logs,
      references: [stack.reference],
    });
    await storeOriginalPhoto(db, files, "container", {
      organizationId,
      measurementId: id,
      data: await renderStackJpeg(stack, seed),
      fileName: `container-${i + 1}.jpg`,
    });
    await opts.enqueuePhoto?.(id, "container");
    made++;
  }
  log(`containers seeded: ${bills.length} bills of lading, ${containerIds.length} containers, ${made} measurements`);
  await logPublicPages(db, organizationId, log);
  return made;
}

/**
 * The first bill of lading and its first container are shared (bills and containers are shared
 * when made; an organisation seeded before that gets their links here, once), and their public
 * pages are logged so the demo's /public_bill_of_lading and /public_container open with data.
 */
async function logPublicPages(db: DB, organizationId: number, log: (s: string) => void) {
  const bill = await db
    .selectFrom("bill_of_ladings")
    .select("id")
    .where("organization_id", "=", organizationId)
    .orderBy("id")
    .executeTakeFirst();
  if (!bill) return;
  const container = await db
    .selectFrom("containers")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("bill_of_lading_id", "=", bill.id)
    .orderBy("id")
    .executeTakeFirst();
  const maker = { organizationId, timeZone: "Europe/Tallinn" };
  await createPublicLink(db, maker, "bill_of_lading", bill.id);
  if (container) await createPublicLink(db, maker, "container", container.id);
  const paths = [
    (await publicLinkOf(db, { organizationId }, "bill_of_lading", bill.id))?.path,
    container ? (await publicLinkOf(db, { organizationId }, "container", container.id))?.path : null,
  ].filter(Boolean);
  if (paths.length) log(`demo container pages: ${paths.join(" and ")}`);
}
