import { describe, expect, it } from "vitest";
import { createOrganization, createSubscription } from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { api } from "#tests/helpers/http";
import { ensureActivationCode } from "~/models/device.server";
import { db } from "~/utils/db.server";
import { hashToken } from "~/utils/token.server";

describe("POST /api/device/pairings", () => {
  it("pairs a device by the organisation's activation code and its token authenticates the device API", async () => {
    const org = await createOrganization();
    await createSubscription(org.id);
    const code = await ensureActivationCode(db(), { organizationId: org.id });
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(await ensureActivationCode(db(), { organizationId: org.id })).toBe(code);

    const r = await api("/api/device/pairings", {
      json: { activation_code: code.toLowerCase(), hw_id: "android-123", name: "Harvester phone" },
    });
    expect(r.status).toBe(201);
    expect(r.data.organization).toEqual({ id: org.id, name: expect.any(String) });
    const device = await db()
      .selectFrom("devices")
      .selectAll()
      .where("id", "=", r.data.device.id)
      .executeTakeFirstOrThrow();
    expect(device).toMatchObject({
      organization_id: org.id,
      name: "Harvester phone",
      hw_id: "android-123",
      token_hash: hashToken(r.data.device_token),
    });
    // The token works on the device API (an unknown path there is a JSON 404 only once authenticated).
    expect((await api("/api/device/nothing", { token: r.data.device_token })).status).toBe(404);
    expect((await api("/api/device/nothing", { token: "wrong" })).status).toBe(401);

    // Pairing the same hardware again keeps the device and rotates its token.
    const again = await api("/api/device/pairings", {
      json: { activation_code: code, hw_id: "android-123", name: "Harvester phone" },
    });
    expect(again.status).toBe(200);
    expect(again.data.device.id).toBe(r.data.device.id);
    expect((await api("/api/device/nothing", { token: r.data.device_token })).status).toBe(401);
  });

  it("refuses an unknown code with 404 and bad input with 422, creating nothing", async () => {
    await createOrganization();
    const before = await snapshotTables();
    expect(
      await api("/api/device/pairings", { json: { activation_code: "ZZZZZZZZ", hw_id: "x", name: "y" } }),
    ).toMatchObject({ status: 404, data: { error: "invalid_activation_code" } });
    const bad = await api("/api/device/pairings", { json: { activation_code: "", hw_id: "" } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.data.errors).sort()).toEqual(["activation_code", "hw_id", "name"]);
    expect(await snapshotTables()).toEqual(before);
  });

  it("refuses a locked device", async () => {
    const org = await createOrganization();
    await createSubscription(org.id);
    const code = await ensureActivationCode(db(), { organizationId: org.id });
    const r = await api("/api/device/pairings", { json: { activation_code: code, hw_id: "ios-9", name: "Tablet" } });
    await db().updateTable("devices").set({ locked: true }).where("id", "=", r.data.device.id).execute();
    expect((await api("/api/device/nothing", { token: r.data.device_token })).status).toBe(403);
    expect(
      (await api("/api/device/pairings", { json: { activation_code: code, hw_id: "ios-9", name: "Tablet" } })).status,
    ).toBe(403);
  });

  it("links a new device only while a package has a free seat (free = quantity - linked, floor 0)", async () => {
    const org = await createOrganization();
    const code = await ensureActivationCode(db(), { organizationId: org.id });
    // No subscription: no seat at all.
    const before = await snapshotTables();
    expect(
      await api("/api/device/pairings", { json: { activation_code: code, hw_id: "a-1", name: "One" } }),
    ).toMatchObject({ status: 402, data: { error: "no_free_device_seats" } });
    expect(await snapshotTables()).toEqual(before);

    await createSubscription(org.id, {
      items: [
        { package_id: "pro_subscription", quantity: 1 },
        { package_id: "log_counter_subscription", quantity: 1 },
        { package_id: "reports_bundle" },
      ],
    });
    const first = await api("/api/device/pairings", { json: { activation_code: code, hw_id: "a-1", name: "One" } });
    const second = await api("/api/device/pairings", { json: { activation_code: code, hw_id: "a-2", name: "Two" } });
    expect([first.status, second.status]).toEqual([201, 201]);
    const { listDeviceSeats } = await import("~/models/billing.server");
    expect(await listDeviceSeats(db(), { organizationId: org.id })).toEqual([
      { package_id: "pro_subscription", quantity: 1, devices_linked: 1 },
      { package_id: "log_counter_subscription", quantity: 1, devices_linked: 1 },
    ]);
    expect(
      await api("/api/device/pairings", { json: { activation_code: code, hw_id: "a-3", name: "Three" } }),
    ).toMatchObject({ status: 402, data: { error: "no_free_device_seats" } });
    // A device already linked pairs again without a new seat.
    expect(
      (await api("/api/device/pairings", { json: { activation_code: code, hw_id: "a-1", name: "One" } })).status,
    ).toBe(200);
  });
});
