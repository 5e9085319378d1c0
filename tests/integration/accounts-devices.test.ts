import { describe, expect, it } from "vitest";
import { apiToken, createOrganization, createStorage, createUser, givePlan } from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { api } from "#tests/helpers/http";
import { expectOutsiderGets404 } from "#tests/helpers/tenancy";
import { ensureActivationCode } from "~/models/device.server";
import { db } from "~/utils/db.server";

async function setup(features: string[] = ["storage_access_management"]) {
  const org = await createOrganization({ name: "Fir Depot", features });
  await givePlan(org.id);
  const admin = await createUser(org.id, { role: "admin" });
  const token = await apiToken(admin.id);
  const code = await ensureActivationCode(db(), { organizationId: org.id });
  const paired = await api("/api/device/pairings", {
    json: { activation_code: code, hw_id: `hw-${org.id}`, name: "Forwarder tablet" },
  });
  return {
    org,
    admin,
    token,
    deviceId: paired.data.device.id as number,
    deviceToken: paired.data.device_token as string,
  };
}

describe("GET /devices and /devices/list", () => {
  it("lists only the organisation's devices, searches, and is admin-only (the lookup list is for members)", async () => {
    const { org, token, deviceId } = await setup();
    await setup();
    const r = await api("/api/web_app/devices", { token });
    expect(r.status).toBe(200);
    expect(r.data).toEqual([
      expect.objectContaining({
        id: deviceId,
        name: "Forwarder tablet",
        locked: false,
        storage_ids: [],
        user_email: null,
        hw_id: `hw-${org.id}`,
      }),
    ]);
    expect((await api("/api/web_app/devices?q=forwarder", { token })).data).toHaveLength(1);
    expect((await api("/api/web_app/devices?q=harvester", { token })).data).toHaveLength(0);
    const viewerToken = await apiToken((await createUser(org.id, { role: "viewer" })).id);
    expect((await api("/api/web_app/devices", { token: viewerToken })).status).toBe(403);
    expect((await api("/api/web_app/devices/list", { token: viewerToken })).data).toEqual([
      { id: deviceId, name: "Forwarder tablet" },
    ]);
  });
});

describe("PATCH and DELETE /devices/{id}", () => {
  it("renames, sets chosen storages with the default among them, back to all; refuses foreign storages and a default outside the choice", async () => {
    const { org, token, deviceId } = await setup();
    const a = await createStorage(org.id, { name: "A" });
    const b = await createStorage(org.id, { name: "B" });
    const url = `/api/web_app/devices/${deviceId}`;
    const renamed = await api(url, {
      method: "PATCH",
      token,
      json: { device: { name: "Harvester 7", affiliation: "Crew North" } },
    });
    expect(renamed.data).toMatchObject({ name: "Harvester 7", affiliation: "Crew North" });
    const access = await api(url, {
      method: "PATCH",
      token,
      json: { device: { storage_ids: [a.id, b.id], default_storage_id: b.id } },
    });
    expect(access.status).toBe(200);
    expect(access.data).toMatchObject({
      storage_ids: expect.arrayContaining([a.id, b.id]),
      default_storage_id: b.id,
      all_storages: false,
    });
    const before = await snapshotTables();
    const outside = await api(url, {
      method: "PATCH",
      token,
      json: { device: { storage_ids: [a.id], default_storage_id: b.id } },
    });
    expect(outside.status).toBe(422);
    expect(outside.data.errors["device.default_storage_id"]).toBeTruthy();
    const foreign = await createStorage((await createOrganization()).id);
    const snap = await snapshotTables();
    expect((await api(url, { method: "PATCH", token, json: { device: { storage_ids: [foreign.id] } } })).status).toBe(
      422,
    );
    expect((await api(url, { method: "PATCH", token, json: { device: { name: "" } } })).status).toBe(422);
    expect((await api(url, { method: "PATCH", token, json: { device: {} } })).status).toBe(422);
    expect(await snapshotTables()).toEqual(snap);
    expect(before).toBeTruthy();
    const all = await api(url, { method: "PATCH", token, json: { device: { storage_ids: null } } });
    expect(all.data).toMatchObject({ storage_ids: [], all_storages: true, default_storage_id: b.id });
  });

  it("chosen storages need the storage_access_management feature; non-admins 403; outsiders 404; DELETE removes the device and its token stops working", async () => {
    const { org, token, deviceId, deviceToken } = await setup([]);
    const a = await createStorage(org.id);
    const url = `/api/web_app/devices/${deviceId}`;
    const gated = await api(url, { method: "PATCH", token, json: { device: { storage_ids: [a.id] } } });
    expect(gated.status).toBe(403);
    expect(gated.data.error).toBe("feature_unavailable");
    const viewerToken = await apiToken((await createUser(org.id, { role: "viewer" })).id);
    expect((await api(url, { method: "PATCH", token: viewerToken, json: { device: { name: "x" } } })).status).toBe(403);
    expect((await api(url, { method: "DELETE", token: viewerToken })).status).toBe(403);
    await expectOutsiderGets404(({ token }) =>
      api(url, { method: "PATCH", token, json: { device: { name: "Stolen" } } }),
    );
    await expectOutsiderGets404(({ token }) => api(url, { method: "DELETE", token }));
    expect((await api("/api/device/nothing", { token: deviceToken })).status).toBe(404);
    expect((await api(url, { method: "DELETE", token })).status).toBe(204);
    expect((await api("/api/device/nothing", { token: deviceToken })).status).toBe(401);
    expect((await api("/api/web_app/devices", { token })).data).toHaveLength(0);
    expect((await api(url, { method: "DELETE", token })).status).toBe(404);
  });
});

describe("POST /devices/send_invite", () => {
  it("mails the activation code and records a pending invitation; 422 for a bad email; 403 for non-admins", async () => {
    const { org, token } = await setup();
    const r = await api("/api/web_app/devices/send_invite", { token, json: { invite: { email: "crew@fir.test" } } });
    expect(r.status).toBe(201);
    expect(r.data.message).toBe("Invitation sent");
    const mail = await db()
      .selectFrom("mail_outbox")
      .selectAll()
      .where("to_address", "=", "crew@fir.test")
      .executeTakeFirstOrThrow();
    const code = (
      await db()
        .selectFrom("organizations")
        .select("device_activation_code")
        .where("id", "=", org.id)
        .executeTakeFirstOrThrow()
    ).device_activation_code!;
    expect(mail.text_body).toContain(code);
    const invitations = await db()
      .selectFrom("device_invitations")
      .selectAll()
      .where("organization_id", "=", org.id)
      .execute();
    expect(invitations).toMatchObject([{ sent_to: "crew@fir.test", accepted_at: null }]);
    expect((await api("/api/web_app/devices/send_invite", { token, json: { invite: { email: "x" } } })).status).toBe(
      422,
    );
    const viewerToken = await apiToken((await createUser(org.id, { role: "viewer" })).id);
    expect(
      (await api("/api/web_app/devices/send_invite", { token: viewerToken, json: { invite: { email: "a@b.test" } } }))
        .status,
    ).toBe(403);
  });
});
