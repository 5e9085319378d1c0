import { describe, expect, it } from "vitest";
import {
  apiToken,
  createDevice,
  createMeasurement,
  createOrganization,
  createStorage,
  createSubscription,
  createUser,
  givePlan,
  webCookie,
} from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { api } from "#tests/helpers/http";
import { deviceUpload, drawnStack, stackPayload } from "#tests/helpers/timber";
import { db } from "~/utils/db.server";

// Issue 12, finding 10: the smaller ones.

describe("uploads", () => {
  it("refuses a truncated JPEG at upload (the header alone looked fine) and stores nothing", async () => {
    const org = await createOrganization();
    await givePlan(org.id);
    const storage = await createStorage(org.id);
    const device = await createDevice(org.id);
    const { stack, jpeg } = await drawnStack(8);
    const before = await snapshotTables();
    const r = await deviceUpload(device.token, {
      measurement: stackPayload(stack, { client_id: "cut-1", storage_id: storage.id }),
      photo: jpeg.subarray(0, Math.floor(jpeg.length / 2)),
    });
    expect(r.status).toBe(422);
    expect(r.data.errors.photo).toBeDefined();
    expect(await snapshotTables()).toEqual(before);
  });

  it("refuses a year-0 taken_at", async () => {
    const org = await createOrganization();
    await givePlan(org.id);
    const storage = await createStorage(org.id);
    const device = await createDevice(org.id);
    const { stack, jpeg } = await drawnStack(9);
    const r = await deviceUpload(device.token, {
      measurement: {
        ...stackPayload(stack, { client_id: "y0", storage_id: storage.id }),
        taken_at: "0000-06-01T00:00:00Z",
      },
      photo: jpeg,
    });
    expect(r.status).toBe(422);
    expect(r.data.errors.taken_at).toBeDefined();
  });
});

describe("recent measurement mode", () => {
  const modeOf = async (id: number) =>
    (await db().selectFrom("users").select("recent_measurement_mode").where("id", "=", id).executeTakeFirstOrThrow())
      .recent_measurement_mode;

  it("opening a mode screen by GET writes nothing; /measurements never lands on a placeholder", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "admin" });
    const cookie = await webCookie(user.id);
    expect((await api("/measurements/container", { cookie })).status).toBe(200);
    expect(await modeOf(user.id)).toBe("timber");
    // The cmpc dashboard is still a placeholder (and this organisation has no cmpc): a mode
    // remembered there never opens it.
    await db().updateTable("users").set({ recent_measurement_mode: "cmpc" }).where("id", "=", user.id).execute();
    expect((await api("/measurements/timber", { cookie })).status).toBe(200);
    expect(await modeOf(user.id)).toBe("cmpc");
    const landing = await api("/measurements", { cookie });
    expect(landing.headers.get("location")).toBe("/measurements/timber");
  });
});

describe("viewer rights (docs/decisions/011-viewer-billing-and-exports.md)", () => {
  it("a viewer may not read the billing items but may export what it can read", async () => {
    const org = await createOrganization();
    await createSubscription(org.id, { items: [{ package_id: "pro_subscription", quantity: 1 }] });
    const viewer = await createUser(org.id, { role: "viewer" });
    const token = await apiToken(viewer.id);
    const storage = await createStorage(org.id);
    const m = await createMeasurement(org.id, storage.id);
    expect((await api("/api/web_app/subscription/items", { token })).status).toBe(403);
    const exported = await api("/api/web_app/excel_exports", {
      token,
      json: { report_type: "log_by_log_excel", measurement_ids: [m.id] },
    });
    expect(exported.status).toBe(201);
    expect(exported.data.user_id ?? viewer.id).toBe(viewer.id);
  });
});
