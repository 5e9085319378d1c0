import { describe, expect, it } from "vitest";
import {
  apiToken,
  createMeasuredStack,
  createOrganization,
  createStorage,
  createUser,
  webCookie,
} from "#tests/factories";
import { api } from "#tests/helpers/http";
import { summarizeMeasurement } from "~/domain";
import { db } from "~/utils/db.server";

// Regression: the demo organisation's assortments have diameter ranges; the detail page and the
// logs sheet sort logs into them (a lazily initialised summary module once broke this).
describe("measurement detail with assortments that have diameter ranges", () => {
  it("renders the per-assortment table and answers the logs sheet", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "admin" });
    const storage = await createStorage(org.id);
    await db()
      .insertInto("assortments")
      .values([
        {
          organization_id: org.id,
          name: "Sawlog 18-26",
          min_diameter: 18,
          max_diameter: 26,
          price_cents: 9500,
          volume_unit: "m^3",
        },
        {
          organization_id: org.id,
          name: "Sawlog 26-40",
          min_diameter: 26.1,
          max_diameter: 40,
          price_cents: 8200,
          volume_unit: "m^3",
        },
      ])
      .execute();
    const m = await createMeasuredStack(org.id, storage.id, { seed: 31, photo: false, lengthM: 4 });

    const html = await api(`/measurement/${m.id}`, {
      cookie: await webCookie(user.id),
      headers: { Accept: "text/html" },
    });
    expect(html.status).toBe(200);
    expect(html.data).toContain("Sawlog 18-26");

    const json = await api(`/api/web_app/measurements/${m.id}?extra_fields=logs_sheet`, {
      token: await apiToken(user.id),
    });
    expect(json.status).toBe(200);
    const logs = await db().selectFrom("logs").select(["d", "v"]).where("measurement_id", "=", m.id).execute();
    const expected = summarizeMeasurement(
      logs.map((l) => ({ d: l.d, v: l.v })),
      { formula: "cylinder", logLengthM: 4 },
    );
    const sheet = (json.data.data ?? json.data).logs_sheet;
    expect(sheet.summary.total_logs).toBe(expected.logCount);
    expect(sheet.summary.average_diameter).toBeCloseTo(expected.averageDiameterCm!, 9);
  });
});

describe("the storages list", () => {
  it("lists the organisation's storages with state and coordinates, for admins only", async () => {
    const org = await createOrganization();
    const other = await createOrganization();
    const admin = await createUser(org.id, { role: "admin" });
    const viewer = await createUser(org.id, { role: "viewer" });
    await createStorage(org.id, { name: "Birch landing", storage_state_id: 4 });
    await createStorage(other.id, { name: "Foreign yard" });
    const page = await api("/storages", { cookie: await webCookie(admin.id), headers: { Accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.data).toContain("Birch landing");
    expect(page.data).toContain("58.380000");
    expect(page.data).not.toContain("Foreign yard");
    expect(
      (await api("/storages", { cookie: await webCookie(viewer.id), headers: { Accept: "text/html" } })).status,
    ).toBe(403);
  });
});
