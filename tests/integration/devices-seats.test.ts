import { describe, expect, it } from "vitest";
import { createOrganization, createUser, givePlan, webCookie } from "#tests/factories";
import { api } from "#tests/helpers/http";
import { ensureActivationCode } from "~/models/device.server";
import { db } from "~/utils/db.server";

describe("device seats on the devices list", () => {
  it("shows each plan's seats and the free ones (quantity minus linked), and pairing takes a seat", async () => {
    const org = await createOrganization();
    const admin = await createUser(org.id, { role: "admin" });
    await givePlan(org.id, { devices: 2 });
    const code = await ensureActivationCode(db(), { organizationId: org.id });
    const cookie = await webCookie(admin.id);

    const page = async () => (await api("/devices", { cookie })).data as string;
    expect(await page()).toMatch(/data-testid="device-seats-summary"[\s\S]*0 of 2 linked, 2 free/);
    expect(
      (await api("/api/device/pairings", { json: { activation_code: code, hw_id: "a", name: "Phone A" } })).status,
    ).toBe(201);
    expect(await page()).toMatch(/1 of 2 linked, 1 free/);
    expect(
      (await api("/api/device/pairings", { json: { activation_code: code, hw_id: "b", name: "Phone B" } })).status,
    ).toBe(201);
    // Full: a third device is refused, the page says none are free.
    const third = await api("/api/device/pairings", { json: { activation_code: code, hw_id: "c", name: "Phone C" } });
    expect(third).toMatchObject({ status: 402, data: { error: "no_free_device_seats" } });
    expect(await page()).toMatch(/2 of 2 linked, 0 free/);
  });
});
