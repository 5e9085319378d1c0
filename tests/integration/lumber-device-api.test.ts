import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { layoutPackage, renderPackageJpeg } from "#db/seed/lumber-photo";
import { createCustomField, createDevice, createOrganization, createStorage, givePlan } from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { deviceUpload } from "#tests/helpers/timber";
import { waitFor } from "#tests/helpers/wait";
import { lumberMeasurementVolumeM3 } from "~/domain/lumber";
import { addPictureCredits } from "~/models/billing.server";
import { fileStorage } from "~/services/file-storage.server";
import { db } from "~/utils/db.server";

// Lumber measurements come from devices through the same upload envelope as timber ones
// (services/measurement-uploads.server.ts): these tests are the envelope's, seen from a second kind.

const PATH = "/api/device/lumber_measurements";
const upload = (token: string, parts: Parameters<typeof deviceUpload>[1]) => deviceUpload(token, parts, PATH);

async function setup(opts: { plan?: boolean } = {}) {
  const org = await createOrganization();
  if (opts.plan ?? true) await givePlan(org.id);
  const storage = await createStorage(org.id, { name: "Sawmill yard" });
  const device = await createDevice(org.id);
  const product = await db()
    .insertInto("lumber_products")
    .values({ organization_id: org.id, name: "Board 150x50", plank_length: 4200, plank_width: 150, plank_height: 50 })
    .executeTakeFirstOrThrow();
  return { org, storage, device, productId: Number(product.insertId) };
}

async function drawnPackage(seed = 4) {
  const pkg = layoutPackage(seed, { width: 800, height: 600, pxPerMm: 0.5, maxPlanks: 30 });
  return { pkg, jpeg: await renderPackageJpeg(pkg, seed) };
}

const payload = (
  pkg: Awaited<ReturnType<typeof drawnPackage>>["pkg"],
  values: { client_id: string; storage_id: number; lumber_product_id?: number | null } & Record<string, unknown>,
) => ({ taken_at: "2026-11-20T08:30:00Z", planks: pkg.planks, ...values });

const lumberRow = (id: number) =>
  db().selectFrom("lumber_measurements").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("POST /api/device/lumber_measurements", () => {
  it("stores the photo, counts the planks, computes the volume with app/domain and queues the renditions", async () => {
    const { org, storage, device, productId } = await setup();
    const { pkg, jpeg } = await drawnPackage();
    const res = await upload(device.token, {
      measurement: payload(pkg, { client_id: "pkg-1", storage_id: storage.id, lumber_product_id: productId }),
      photo: jpeg,
    });
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    const volume = lumberMeasurementVolumeM3(pkg.planks, { lengthMm: 4200, widthMm: 150, heightMm: 50 });
    expect(res.data.measurement).toMatchObject({
      client_id: "pkg-1",
      storage_id: storage.id,
      device_id: device.id,
      lumber_product_id: productId,
      plank_count: pkg.planks.length,
      volume_status: "computed",
      photo_width: pkg.width,
      photo_height: pkg.height,
    });
    expect(res.data.measurement.volume).toBeCloseTo(volume, 12);
    expect(res.data.measurement.planks).toHaveLength(pkg.planks.length);
    const row = await lumberRow(res.data.measurement.id);
    expect(row).toMatchObject({ organization_id: org.id, plank_count: pkg.planks.length });
    expect(await fileStorage().get(row.photo_key!)).toEqual(jpeg);
    const done = await waitFor(
      async () => {
        const r = await lumberRow(row.id);
        return r.photo_status === 1 ? r : null;
      },
      { what: "the lumber renditions" },
    );
    const thumb = await sharp(await fileStorage().get(done.photo_thumbnail_key!)).metadata();
    expect([thumb.width, thumb.height]).toEqual([160, 160]);
  });

  it("a retry with the same client id answers the same measurement and creates nothing", async () => {
    const { storage, device, productId } = await setup();
    const { pkg, jpeg } = await drawnPackage(5);
    const body = payload(pkg, { client_id: "retry-1", storage_id: storage.id, lumber_product_id: productId });
    const first = await upload(device.token, { measurement: body, photo: jpeg });
    expect(first.status).toBe(201);
    const before = await snapshotTables();
    const again = await upload(device.token, { measurement: { ...body, planks: [] }, photo: jpeg });
    expect(again.status).toBe(200);
    expect(again.data.measurement.id).toBe(first.data.measurement.id);
    expect(again.data.measurement.plank_count).toBe(pkg.planks.length);
    expect(await snapshotTables()).toEqual(before);
  });

  it("answers 422 naming each bad field, and writes nothing", async () => {
    const { org, storage, device } = await setup();
    await createCustomField(org.id, { key: "grade", source_key: "lumber_measurement", data_type: "integer" });
    const foreign = await setup();
    const { pkg, jpeg } = await drawnPackage(6);
    const before = await snapshotTables();
    const missing = await upload(device.token, { measurement: { planks: "no" } });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.data.errors).sort()).toEqual(["client_id", "photo", "planks", "storage_id", "taken_at"]);
    const wrong = await upload(device.token, {
      measurement: payload(pkg, {
        client_id: "bad-1",
        storage_id: storage.id,
        lumber_product_id: foreign.productId,
        planks: [...pkg.planks, { x: pkg.width - 10, y: 0, width: 50, height: 20 }],
        custom_fields: { grade: "A", nonsense: 1 },
      }),
      photo: jpeg,
    });
    expect(wrong.status).toBe(422);
    expect(wrong.data.errors).toEqual({
      lumber_product_id: ["timber:errors.unknown"],
      [`planks.${pkg.planks.length}`]: ["timber:errors.plankOutsidePhoto"],
      "custom_fields.grade": ["timber:errors.customFieldType"],
      "custom_fields.nonsense": ["timber:errors.unknownCustomField"],
    });
    const elsewhere = await upload(device.token, {
      measurement: payload(pkg, { client_id: "bad-2", storage_id: foreign.storage.id }),
      photo: jpeg,
    });
    expect(elsewhere.data.errors).toEqual({ storage_id: ["timber:errors.storageNotAllowed"] });
    const notAnImage = await upload(device.token, {
      measurement: payload(pkg, { client_id: "bad-3", storage_id: storage.id }),
      photo: Buffer.from("not an image"),
    });
    expect(notAnImage.data.errors).toEqual({ photo: ["timber:errors.photo.not_an_image"] });
    expect(await snapshotTables()).toEqual(before);
  });

  it("without a plan each upload uses a picture credit, and none left is refused (402) writing nothing", async () => {
    const { org, storage, device, productId } = await setup({ plan: false });
    await addPictureCredits(db(), { organizationId: org.id }, 1, "PLAN_10");
    const { pkg, jpeg } = await drawnPackage(7);
    const first = await upload(device.token, {
      measurement: payload(pkg, { client_id: "credit-1", storage_id: storage.id, lumber_product_id: productId }),
      photo: jpeg,
    });
    expect(first.status, JSON.stringify(first.data)).toBe(201);
    const before = await snapshotTables();
    const second = await upload(device.token, {
      measurement: payload(pkg, { client_id: "credit-2", storage_id: storage.id, lumber_product_id: productId }),
      photo: jpeg,
    });
    expect([second.status, second.data.error]).toEqual([402, "no_remaining_measurements"]);
    expect(await snapshotTables()).toEqual(before);
  });
});
