import { describe, expect, it } from "vitest";
import { apiToken, createOrganization, createUser, webCookie } from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { api } from "#tests/helpers/http";
import { db } from "~/utils/db.server";

async function setup(opts: { cmpc?: boolean } = {}) {
  const org = await createOrganization({ cmpc_enabled: opts.cmpc ?? false });
  const user = await createUser(org.id, { role: "viewer" });
  return { org, user, token: await apiToken(user.id) };
}

describe("GET /api/web_app/account", () => {
  it("answers the account with its roles and never the secrets", async () => {
    const { org, user, token } = await setup();
    const { status, data } = await api("/api/web_app/account", { token });
    expect(status).toBe(200);
    expect(data).toMatchObject({
      id: user.id,
      email: user.email,
      locale: "en",
      time_zone: "Europe/Tallinn",
      volume_unit: "m^3",
      rounding_precision: 2,
      recent_measurement_mode: "timber",
      otp_enabled: false,
      roles: [{ name: "viewer", type: "Organization", resource_id: org.id }],
    });
    expect(JSON.stringify(data)).not.toMatch(/password_hash|otp_secret|scrypt/);
  });
});

describe("PATCH /api/web_app/account", () => {
  it("changes the locale and the recent measurement mode", async () => {
    const { user, token } = await setup();
    const r1 = await api("/api/web_app/account", { method: "PATCH", token, json: { user: { locale: "et" } } });
    expect(r1.status).toBe(200);
    expect(r1.data.locale).toBe("et");
    const r2 = await api("/api/web_app/account", {
      method: "PATCH",
      token,
      json: { user: { recent_measurement_mode: "truck" } },
    });
    expect(r2.data.recent_measurement_mode).toBe("truck");
    const row = await db()
      .selectFrom("users")
      .select(["locale", "recent_measurement_mode"])
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ locale: "et", recent_measurement_mode: "truck" });
  });

  it("answers 422 with field errors for bad values and changes nothing", async () => {
    const { token } = await setup();
    const before = await snapshotTables();
    for (const user of [{ locale: "xx" }, { recent_measurement_mode: "boats" }, { email: "new@example.test" }]) {
      const { status, data } = await api("/api/web_app/account", { method: "PATCH", token, json: { user } });
      expect(status).toBe(422);
      expect(data.error).toBe("validation_failed");
      expect(Object.keys(data.errors).length).toBeGreaterThan(0);
    }
    expect(await snapshotTables()).toEqual(before);
  });

  it("offers the cmpc mode only to organisations flagged for it", async () => {
    const plain = await setup();
    const refused = await api("/api/web_app/account", {
      method: "PATCH",
      token: plain.token,
      json: { user: { recent_measurement_mode: "cmpc" } },
    });
    expect(refused.status).toBe(422);
    expect(refused.data.errors["user.recent_measurement_mode"]).toBeDefined();
    const flagged = await setup({ cmpc: true });
    const ok = await api("/api/web_app/account", {
      method: "PATCH",
      token: flagged.token,
      json: { user: { recent_measurement_mode: "cmpc" } },
    });
    expect(ok.data.recent_measurement_mode).toBe("cmpc");
  });

  it("takes the header's language form without JavaScript and redirects back", async () => {
    const { user } = await setup();
    const cookie = await webCookie(user.id);
    const r = await api("/api/web_app/account", { cookie, form: { locale: "fi", redirectTo: "/measurements" } });
    expect(r.status).toBe(302);
    expect(r.headers.get("location")).toBe("/measurements");
    const row = await db().selectFrom("users").select("locale").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.locale).toBe("fi");
  });
});
