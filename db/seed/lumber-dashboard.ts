import { lumberTotals } from "~/models/lumber.server";
import type { MeasurementKind } from "~/models/measurement-kind.server";
import type { FileStorage } from "~/services/file-storage.server";
import { storeOriginalPhoto } from "~/services/photos.server";
import type { DB } from "~/utils/db.server";
import { layoutPackage, renderPackageJpeg } from "./lumber-photo";

// The demo's lumber dashboard: besides the three lumber measurements of the demo seed, eight
// more packages over the last two months in every live storage, with both products and a
// "Package lot" custom field, so /measurements/lumber shows several storages with plank counts,
// a storage whose list pages, and a filter by product or lot that narrows it. Run again, it adds
// nothing (its measurements carry client ids of their own).

type EnqueuePhoto = (measurementId: number, kind: MeasurementKind) => Promise<unknown>;

const COUNT = 8;
const clientId = (i: number) => `demo-lumber-dashboard-${i}`;

export async function seedLumberDashboard(
  db: DB,
  files: FileStorage,
  organizationId: number,
  opts: { enqueuePhoto?: EnqueuePhoto; log?: (s: string) => void } = {},
) {
  const done = await db
    .selectFrom("lumber_measurements")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("client_id", "=", clientId(0))
    .executeTakeFirst();
  if (done) return 0;
  const [products, storages] = await Promise.all([
    db
      .selectFrom("lumber_products")
      .select(["id", "name", "plank_length", "plank_width", "plank_height"])
      .where("organization_id", "=", organizationId)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("storages")
      .select(["id", "latitude", "longitude"])
      .where("organization_id", "=", organizationId)
      .where("deleted_at", "is", null)
      .orderBy("id")
      .execute(),
  ]);
  if (!products.length || !storages.length) return 0;
  const hasLot = await db
    .selectFrom("custom_fields")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("key", "=", "package_lot")
    .executeTakeFirst();
  if (!hasLot)
    await db
      .insertInto("custom_fields")
      .values({
        organization_id: organizationId,
        key: "package_lot",
        name: "Package lot",
        source_key: "lumber_measurement",
        data_type: "string",
        searchable: true,
      })
      .execute();

  for (let i = 0; i < COUNT; i++) {
    const product = products[i % products.length];
    // The first storage gets most (its list pages), the others one or two each.
    const storage = storages[i < 5 ? 0 : 1 + (i % Math.max(1, storages.length - 1))] ?? storages[0];
    const seed = 600 + i;
    const pkg = layoutPackage(seed, {
      plankWidthMm: product.plank_width,
      plankHeightMm: product.plank_height,
      pxPerMm: product.plank_width <= 100 ? 2 : 1,
    });
    const takenAt = new Date(Date.now() - (i * 7 + 1) * 24 * 3600 * 1000);
    const totals = lumberTotals(
      pkg.planks.map((p) => ({ ...p, is_deleted: false })),
      product,
    );
    const r = await db
      .insertInto("lumber_measurements")
      .values({
        organization_id: organizationId,
        storage_id: storage.id,
        client_id: clientId(i),
        lumber_product_id: product.id,
        measurement_type_id: i % 3 === 2 ? 1 : 0,
        taken_at: takenAt,
        latitude: storage.latitude,
        longitude: storage.longitude,
        plank_count: totals.plankCount,
        volume: totals.volume,
        custom_fields: JSON.stringify({ package_lot: `LOT-${100 + (i % 3)}` }),
      })
      .executeTakeFirstOrThrow();
    const id = Number(r.insertId);
    await db
      .insertInto("planks")
      .values(pkg.planks.map((p) => ({ organization_id: organizationId, lumber_measurement_id: id, ...p })))
      .execute();
    await storeOriginalPhoto(db, files, "lumber", {
      organizationId,
      measurementId: id,
      data: await renderPackageJpeg(pkg, seed),
      fileName: `package-${id}.jpg`,
    });
    await opts.enqueuePhoto?.(id, "lumber");
  }
  opts.log?.(`demo lumber dashboard: ${COUNT} more lumber measurements`);
  return COUNT;
}
