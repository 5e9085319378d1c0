import { computeMeasurementLogs } from "~/domain/measurement-logs";
import { lumberTotals } from "~/models/lumber.server";
import type { MeasurementKind } from "~/models/measurement-kind.server";
import type { FileStorage } from "~/services/file-storage.server";
import { storeOriginalPhoto } from "~/services/photos.server";
import type { DB } from "~/utils/db.server";
import { hashPassword } from "~/utils/password.server";
import { randomToken } from "~/utils/token.server";
import { seedBilling } from "./billing";
import { layoutPackage, renderPackageJpeg } from "./lumber-photo";
import { layoutStack, mulberry32, renderStackJpeg } from "./stack-photo";

// The demo organisation: an admin and a viewer, four storages in different states around
// Estonia, master data, about 30 timber measurements over the last three months with generated
// stack photos, and 3 lumber measurements with drawn package photos. A second organisation
// makes the organisation switcher visible.

export const DEMO = {
  organization: "Demo Forest OÜ",
  registrationCode: "DEMO-0001",
  admin: { email: "admin@demo.timber.test", password: "Demo-Password-2026!", name: "Mari Metsik" },
  viewer: { email: "viewer@demo.timber.test", password: "Demo-Password-2026!", name: "Jaan Vaatleja" },
};

const STORAGES = [
  { name: "Pärnu sawmill yard", latitude: 58.385792, longitude: 24.496574, storage_state_id: 1 },
  { name: "Tartu roadside landing", latitude: 58.378025, longitude: 26.728493, storage_state_id: 4 },
  { name: "Rakvere forest block 12", latitude: 59.346372, longitude: 26.355829, storage_state_id: 2 },
  { name: "Muuga port terminal", latitude: 59.494861, longitude: 24.958472, storage_state_id: 6 },
];

/** Queues the renditions of a measurement photo (jobs/enqueue.ts enqueuePhotoJob, or nothing in tests). */
type EnqueuePhoto = (measurementId: number, kind: MeasurementKind) => Promise<unknown>;

export async function seedDemo(
  db: DB,
  files: FileStorage,
  enqueuePhoto: EnqueuePhoto,
  opts: { measurements?: number; log?: (s: string) => void } = {},
) {
  const log = opts.log ?? (() => {});
  const existing = await db
    .selectFrom("organizations")
    .select("id")
    .where("registration_code", "=", DEMO.registrationCode)
    .executeTakeFirst();
  if (existing) {
    // Databases seeded before lumber measurements existed get them on the next seed.
    const lumber = await seedLumber(db, files, existing.id);
    log(
      lumber
        ? `demo organisation already present: added ${lumber} lumber measurements`
        : "demo organisation already present: nothing to do",
    );
    return { organizationId: existing.id, created: false };
  }

  const orgId = await db.transaction().execute(async (trx) => {
    const org = await trx
      .insertInto("organizations")
      .values({
        name: DEMO.organization,
        registration_code: DEMO.registrationCode,
        country: "EE",
        city: "Tartu",
        address: "Metsa 1",
        postal_code: "50101",
        vat_code: "EE100000001",
        invoice_email: "invoices@demo.timber.test",
        currency: "EUR",
        contact_person: DEMO.admin.name,
        phone: "+372 5555 0101",
        token: randomToken(16),
        // Derived from the subscription seedBilling gives it below.
        features: JSON.stringify([]),
      })
      .executeTakeFirstOrThrow();
    const organizationId = Number(org.insertId);
    const other = await trx
      .insertInto("organizations")
      .values({
        name: "Northern Sawmill AS",
        registration_code: "DEMO-0002",
        country: "FI",
        currency: "EUR",
        features: JSON.stringify([]),
      })
      .executeTakeFirstOrThrow();
    const otherId = Number(other.insertId);

    const now = new Date();
    const admin = await trx
      .insertInto("users")
      .values({
        email: DEMO.admin.email,
        name: DEMO.admin.name,
        password_hash: await hashPassword(DEMO.admin.password),
        verified_at: now,
        recent_organization_id: organizationId,
        devices_updated_at: now,
      })
      .executeTakeFirstOrThrow();
    const viewer = await trx
      .insertInto("users")
      .values({
        email: DEMO.viewer.email,
        name: DEMO.viewer.name,
        password_hash: await hashPassword(DEMO.viewer.password),
        verified_at: now,
        recent_organization_id: organizationId,
        devices_updated_at: now,
      })
      .executeTakeFirstOrThrow();
    const adminId = Number(admin.insertId);
    const viewerId = Number(viewer.insertId);
    await trx
      .insertInto("roles")
      .values([
        {
          user_id: adminId,
          organization_id: organizationId,
          name: "admin",
          assignable_type: "Organization",
          assignable_id: organizationId,
        },
        {
          user_id: viewerId,
          organization_id: organizationId,
          name: "viewer",
          assignable_type: "Organization",
          assignable_id: organizationId,
        },
        {
          user_id: adminId,
          organization_id: otherId,
          name: "viewer",
          assignable_type: "Organization",
          assignable_id: otherId,
        },
      ])
      .execute();

    const storageIds: number[] = [];
    for (const s of STORAGES) {
      const r = await trx
        .insertInto("storages")
        .values({ ...s, organization_id: organizationId })
        .executeTakeFirstOrThrow();
      storageIds.push(Number(r.insertId));
    }
    await trx
      .updateTable("organizations")
      .set({ default_storage_id: storageIds[0] })
      .where("id", "=", organizationId)
      .execute();
    await trx
      .insertInto("storages")
      .values({
        organization_id: otherId,
        name: "Oulu log yard",
        latitude: 65.012093,
        longitude: 25.465077,
        storage_state_id: 4,
      })
      .execute();

    await trx
      .insertInto("assortments")
      .values([
        {
          organization_id: organizationId,
          name: "Spruce sawlog A 4.9 m",
          wood_type_id: 2,
          wood_quality_id: 1,
          log_length: 4.9,
          min_diameter: 18,
          max_diameter: 26,
          price_cents: 9500,
          volume_unit: "m^3",
        },
        {
          organization_id: organizationId,
          name: "Spruce sawlog B 4.9 m",
          wood_type_id: 2,
          wood_quality_id: 2,
          log_length: 4.9,
          min_diameter: 26.1,
          max_diameter: 40,
          price_cents: 8200,
          volume_unit: "m^3",
        },
        {
          organization_id: organizationId,
          name: "Pine pulpwood 3 m",
          wood_type_id: 1,
          wood_quality_id: 4,
          log_length: 3,
          min_diameter: 6,
          max_diameter: 17.9,
          price_cents: 4300,
          volume_unit: "m^3",
        },
        {
          organization_id: organizationId,
          name: "Birch firewood",
          wood_type_id: 3,
          wood_quality_id: 5,
          log_length: 3,
          price_per_log_cents: 150,
          volume_unit: "m^3",
        },
      ])
      .execute();
    await trx
      .insertInto("culls")
      .values([
        { organization_id: organizationId, reason: "Rot" },
        { organization_id: organizationId, reason: "Crook" },
        { organization_id: organizationId, reason: "Metal" },
        { organization_id: organizationId, reason: "Too small", min: 0, max: 8 },
      ])
      .execute();
    return { organizationId, adminId, storageIds };
  });

  const count = opts.measurements ?? 30;
  const rand = mulberry32(2026);
  const lengths = [3, 4, 4.9, 5.5];
  const woodTypes = [1, 2, 3];
  for (let i = 0; i < count; i++) {
    const stack = layoutStack(1000 + i);
    const lengthM = lengths[i % lengths.length];
    const computed = computeMeasurementLogs(stack.logs, {
      references: [stack.reference],
      formula: "cylinder",
      lengthM,
    });
    const storageId = orgId.storageIds[i % orgId.storageIds.length];
    const storage = STORAGES[i % STORAGES.length];
    const takenAt = new Date(
      Date.now() - Math.round((i / count) * 88 * 24 * 3600 * 1000) - Math.round(rand() * 6 * 3600 * 1000),
    );
    const m = await db
      .insertInto("measurements")
      .values({
        organization_id: orgId.organizationId,
        storage_id: storageId,
        user_id: orgId.adminId,
        client_id: `seed-${i + 1}`,
        taken_at: takenAt,
        measured_at: takenAt,
        measurement_type_id: i % 4 === 0 ? 1 : 0,
        latitude: storage.latitude + (rand() - 0.5) * 0.01,
        longitude: storage.longitude + (rand() - 0.5) * 0.01,
        log_length: lengthM,
        logs_count: computed.logsCount,
        volume: computed.volume,
        initial_volume: computed.volume,
        wood_type_id: woodTypes[i % woodTypes.length],
        wood_quality_id: 1 + (i % 3),
        volume_formula: "cylinder",
        metrology: JSON.stringify({
          angle_validation: { angle: 2 + rand() * 6, status: 1 },
          interference: { score: rand() * 0.2, status: 1 },
          brightness: { score: 0.5 + rand() * 0.4, status: i % 9 === 4 ? 0 : 1 },
          is_valid: i % 9 !== 4,
        }),
        poor_detection: i % 11 === 7,
        comment: i % 5 === 0 ? "Roadside pile, checked by the forester." : null,
      })
      .executeTakeFirstOrThrow();
    const measurementId = Number(m.insertId);
    await db
      .insertInto("logs")
      .values(
        computed.logs.map((l) => ({
          organization_id: orgId.organizationId,
          measurement_id: measurementId,
          x: l.x,
          y: l.y,
          r: l.r,
          d: l.d,
          v: l.v,
        })),
      )
      .execute();
    await db
      .insertInto("measurement_references")
      .values({ organization_id: orgId.organizationId, measurement_id: measurementId, ...stack.reference })
      .execute();
    await storeOriginalPhoto(db, files, "timber", {
      organizationId: orgId.organizationId,
      measurementId,
      data: await renderStackJpeg(stack, 1000 + i),
      fileName: `stack-${i + 1}.jpg`,
    });
    await enqueuePhoto(measurementId, "timber");
  }
  log(`demo organisation seeded: ${count} measurements with photos (renditions queued for the worker)`);
  const lumber = await seedLumber(db, files, orgId.organizationId, orgId.adminId, enqueuePhoto);
  log(`demo lumber: ${lumber} lumber measurements with package photos`);
  await seedBilling(db, orgId.organizationId);
  log("demo subscription: yearly Pro for 3 devices with diameter profiles, custom fields and reports");
  return { organizationId: orgId.organizationId, created: true };
}

const LUMBER_PRODUCTS = [
  { name: "Spruce board 150 × 50, 4.2 m", plank_length: 4200, plank_width: 150, plank_height: 50 },
  { name: "Pine batten 100 × 25, 3 m", plank_length: 3000, plank_width: 100, plank_height: 25 },
];

/**
 * Two lumber products (when the organisation has none) and 3 lumber measurements whose planks
 * are exactly the drawn plank ends; on the last, the detection "missed" one plank that a person
 * added (modified), so the overlay shows both colours. Nothing when it has lumber measurements.
 */
export async function seedLumber(
  db: DB,
  files: FileStorage,
  organizationId: number,
  userId: number | null = null,
  enqueuePhoto?: EnqueuePhoto,
) {
  const has = await db
    .selectFrom("lumber_measurements")
    .select("id")
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
  if (has) return 0;
  const productsOf = () =>
    db
      .selectFrom("lumber_products")
      .select(["id", "name", "plank_length", "plank_width", "plank_height"])
      .where("organization_id", "=", organizationId)
      .orderBy("id")
      .execute();
  let products = await productsOf();
  if (!products.length) {
    await db
      .insertInto("lumber_products")
      .values(LUMBER_PRODUCTS.map((p) => ({ ...p, organization_id: organizationId })))
      .execute();
    products = await productsOf();
  }
  const storages = await db
    .selectFrom("storages")
    .select(["id", "latitude", "longitude"])
    .where("organization_id", "=", organizationId)
    .where("deleted_at", "is", null)
    .orderBy("id")
    .limit(3)
    .execute();
  if (!storages.length) return 0;
  const count = 3;
  for (let i = 0; i < count; i++) {
    const product = products[i % products.length];
    const storage = storages[i % storages.length];
    const seed = 500 + i;
    const pkg = layoutPackage(seed, {
      plankWidthMm: product.plank_width,
      plankHeightMm: product.plank_height,
      pxPerMm: product.plank_width <= 100 ? 2 : 1,
    });
    const takenAt = new Date(Date.now() - (i * 9 + 2) * 24 * 3600 * 1000);
    const r = await db
      .insertInto("lumber_measurements")
      .values({
        organization_id: organizationId,
        storage_id: storage.id,
        user_id: userId,
        lumber_product_id: product.id,
        measurement_type_id: i === 1 ? 1 : 0,
        taken_at: takenAt,
        latitude: storage.latitude,
        longitude: storage.longitude,
        comment: i === 0 ? "Package 1 of the morning delivery." : null,
        custom_fields: "{}",
      })
      .executeTakeFirstOrThrow();
    const id = Number(r.insertId);
    const added = i === count - 1 ? pkg.planks.length - 1 : -1;
    const planks = pkg.planks.map((p, k) => ({
      organization_id: organizationId,
      lumber_measurement_id: id,
      ...p,
      modified_at: k === added ? takenAt : null,
    }));
    await db.insertInto("planks").values(planks).execute();
    await storeOriginalPhoto(db, files, "lumber", {
      organizationId,
      measurementId: id,
      data: await renderPackageJpeg(pkg, seed),
      fileName: `package-${i + 1}.jpg`,
    });
    await enqueuePhoto?.(id, "lumber");
    const totals = lumberTotals(
      planks.map((p) => ({ ...p, is_deleted: false })),
      product,
    );
    await db
      .updateTable("lumber_measurements")
      .set({ plank_count: totals.plankCount, volume: totals.volume })
      .where("id", "=", id)
      .execute();
  }
  return count;
}
