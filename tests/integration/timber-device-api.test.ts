import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { createCustomField, createDevice, createOrganization, createStorage, givePlan } from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { api } from "#tests/helpers/http";
import { deviceUpload, drawnStack, stackPayload } from "#tests/helpers/timber";
import { waitFor } from "#tests/helpers/wait";
import { computeMeasurementLogs } from "~/domain/measurement-logs";
import { fileStorage } from "~/services/file-storage.server";
import { db } from "~/utils/db.server";

async function setup(deviceOpts: Parameters<typeof createDevice>[1] = {}) {
  const org = await createOrganization();
  await givePlan(org.id);
  const storage = await createStorage(org.id, { name: "Landing A" });
  const device = await createDevice(org.id, deviceOpts);
  return { org, storage, device };
}

describe("POST /api/device/measurements", () => {
  it("stores the photo, computes diameters and volume with app/domain, queues the renditions", async () => {
    const { org, storage, device } = await setup();
    const { stack, jpeg } = await drawnStack(5);
    const res = await deviceUpload(device.token, {
      measurement: stackPayload(stack, { client_id: "c-1", storage_id: storage.id }),
      photo: jpeg,
    });
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    const expected = computeMeasurementLogs(stack.logs, {
      references: [stack.reference],
      formula: "cylinder",
      lengthM: 3,
    });
    expect(res.data.measurement.volume).toBeCloseTo(expected.volume, 9);
    expect(res.data.measurement.logs_count).toBe(stack.logs.length);
    const row = await db()
      .selectFrom("measurements")
      .selectAll()
      .where("id", "=", res.data.measurement.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      organization_id: org.id,
      storage_id: storage.id,
      device_id: device.id,
      client_id: "c-1",
      logs_count: stack.logs.length,
    });
    const logs = await db()
      .selectFrom("logs")
      .select(["d", "v"])
      .where("measurement_id", "=", row.id)
      .orderBy("id")
      .execute();
    expect(logs.map((l) => l.d)).toEqual(expected.logs.map((l) => l.d));
    // A drawn 4 px/cm stack: the first log's diameter is its drawn radius * 2 / 4.
    expect(logs[0].d).toBeCloseTo((stack.logs[0].r * 2) / stack.pxPerCm, 1);
    expect(await fileStorage().get(row.photo_key!)).toEqual(jpeg);
    const done = await waitFor(
      async () => {
        const r = await db()
          .selectFrom("measurements")
          .select(["photo_status", "photo_thumbnail_key"])
          .where("id", "=", row.id)
          .executeTakeFirstOrThrow();
        return r.photo_status === 1 ? r : null;
      },
      { what: "the renditions" },
    );
    expect(done.photo_thumbnail_key).toContain(`/measurements/${row.id}/thumbnail.jpg`);
  });

  it("a retry with the same client id answers the same measurement and creates nothing", async () => {
    const { storage, device } = await setup();
    const { stack, jpeg } = await drawnStack(6);
    const payload = stackPayload(stack, { client_id: "retry-1", storage_id: storage.id });
    const first = await deviceUpload(device.token, { measurement: payload, photo: jpeg });
    expect(first.status).toBe(201);
    const before = await snapshotTables();
    const again = await deviceUpload(device.token, { measurement: payload, photo: jpeg });
    expect(again.status).toBe(200);
    expect(again.data.measurement.id).toBe(first.data.measurement.id);
    expect(await snapshotTables()).toEqual(before);
  });

  it("answers 422 naming each bad field, and writes nothing", async () => {
    const { storage, device } = await setup();
    const { jpeg } = await drawnStack(7);
    const before = await snapshotTables();
    const res = await deviceUpload(device.token, {
      measurement: {
        client_id: "",
        taken_at: "yesterday",
        storage_id: storage.id,
        latitude: 91,
        longitude: -181,
        log_length: -3,
        volume_formula: "huber",
        measurement_type_id: 7,
        logs: [{ x: 1, y: 2, r: -1 }],
        references: [{ x1: 0, y1: 0, x2: 10, y2: 0, size: 0 }],
      },
      photo: jpeg,
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.data.errors).sort()).toEqual(
      [
        "client_id",
        "taken_at",
        "latitude",
        "longitude",
        "log_length",
        "volume_formula",
        "measurement_type_id",
        "logs.0.r",
        "references.0.size",
      ].sort(),
    );
    const missing = await deviceUpload(device.token, { rawMeasurement: "{not json" });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.data.errors).sort()).toEqual(["measurement", "photo"]);
    expect(await snapshotTables()).toEqual(before);
  });

  it("refuses a photo that is not an image, and a decompression bomb", async () => {
    const { storage, device } = await setup();
    const { stack } = await drawnStack(8);
    const before = await snapshotTables();
    const text = await deviceUpload(device.token, {
      measurement: stackPayload(stack, { client_id: "p-1", storage_id: storage.id }),
      photo: Buffer.from("not an image at all"),
    });
    expect(text.status).toBe(422);
    expect(text.data.errors.photo).toEqual(["timber:errors.photo.not_an_image"]);
    // 10000 x 10000 px of one colour compresses to a few kB and would expand to 100 megapixels.
    const bomb = await sharp({ create: { width: 10000, height: 10000, channels: 3, background: "#000" } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const res = await deviceUpload(device.token, {
      measurement: stackPayload(stack, { client_id: "p-2", storage_id: storage.id }),
      photo: bomb,
      photoType: "image/png",
    });
    expect(res.status).toBe(422);
    expect(res.data.errors.photo[0]).toMatch(/timber:errors\.photo\.(not_an_image|too_many_pixels)/);
    expect(await snapshotTables()).toEqual(before);
  });

  it("uploads only into storages the device may use; another organisation's storage too is refused", async () => {
    const { org, storage } = await setup();
    const other = await createStorage(org.id, { name: "Not for this phone" });
    const device = await createDevice(org.id, { allStorages: false, storageIds: [storage.id] });
    const foreignOrg = await createOrganization();
    const foreign = await createStorage(foreignOrg.id);
    const { stack, jpeg } = await drawnStack(9);
    const before = await snapshotTables();
    for (const storageId of [other.id, foreign.id]) {
      const res = await deviceUpload(device.token, {
        measurement: stackPayload(stack, { client_id: `s-${storageId}`, storage_id: storageId }),
        photo: jpeg,
      });
      expect(res.status).toBe(422);
      expect(res.data.errors).toEqual({ storage_id: ["timber:errors.storageNotAllowed"] });
    }
    expect(await snapshotTables()).toEqual(before);
    const ok = await deviceUpload(device.token, {
      measurement: stackPayload(stack, { client_id: "s-ok", storage_id: storage.id }),
      photo: jpeg,
    });
    expect(ok.status).toBe(201);
  });

  it("checks lookups and custom fields against the organisation", async () => {
    const { org, storage, device } = await setup();
    await createCustomField(org.id, { key: "lot", data_type: "integer" });
    const { stack, jpeg } = await drawnStack(10);
    const bad = await deviceUpload(device.token, {
      measurement: stackPayload(stack, {
        client_id: "cf-1",
        storage_id: storage.id,
        wood_type_id: 999999,
        custom_fields: { lot: "abc", nope: 1 },
      }),
      photo: jpeg,
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.data.errors).sort()).toEqual(["custom_fields.lot", "custom_fields.nope", "wood_type_id"]);
    const good = await deviceUpload(device.token, {
      measurement: stackPayload(stack, {
        client_id: "cf-2",
        storage_id: storage.id,
        wood_type_id: 2,
        custom_fields: { lot: "42" },
      }),
      photo: jpeg,
    });
    expect(good.status).toBe(201);
    const row = await db()
      .selectFrom("measurements")
      .select("custom_fields")
      .where("id", "=", good.data.measurement.id)
      .executeTakeFirstOrThrow();
    expect(row.custom_fields).toEqual({ lot: 42 });
  });

  it("rejects unknown and locked device tokens", async () => {
    const { storage } = await setup();
    const { stack, jpeg } = await drawnStack(11);
    expect(
      (
        await deviceUpload("nope", {
          measurement: stackPayload(stack, { client_id: "x", storage_id: storage.id }),
          photo: jpeg,
        })
      ).status,
    ).toBe(401);
  });
});

describe("device lookups", () => {
  it("lists the device's storages and the organisation's master data only", async () => {
    const { org, storage } = await setup();
    const hidden = await createStorage(org.id);
    const device = await createDevice(org.id, { allStorages: false, storageIds: [storage.id] });
    const foreignOrg = await createOrganization();
    await createStorage(foreignOrg.id);
    await createCustomField(foreignOrg.id, { key: "foreign_key" });
    await createCustomField(org.id, { key: "own_key" });
    const storages = await api("/api/device/storages", { token: device.token });
    expect(storages.status).toBe(200);
    expect(storages.data.storages.map((s: { id: number }) => s.id)).toEqual([storage.id]);
    expect(storages.data.storages.map((s: { id: number }) => s.id)).not.toContain(hidden.id);
    const lookups = await api("/api/device/lookups", { token: device.token });
    expect(lookups.status).toBe(200);
    expect(lookups.data.custom_fields.map((f: { key: string }) => f.key)).toEqual(["own_key"]);
    expect(lookups.data.wood_types.find((w: { id: number }) => w.id === 2)).toMatchObject({ species: "spruce" });
    expect(lookups.data.volume_formulas.map((f: { key: string }) => f.key)).toContain("cylinder");
    expect(lookups.data.volume_formulas.map((f: { key: string }) => f.key)).not.toContain("huber");
  });
});
