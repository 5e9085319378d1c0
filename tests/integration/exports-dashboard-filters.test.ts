import { describe, expect, it } from "vitest";
import {
  apiToken,
  createCustomField,
  createMeasuredStack,
  createOrganization,
  createStorage,
  createUser,
  webCookie,
} from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { download, readXlsx, waitForExport } from "#tests/helpers/exports";
import { api } from "#tests/helpers/http";
import { db } from "~/utils/db.server";

// The dashboard's Excel exports select with the dashboard's own filter (one parser, one WHERE):
// what the dashboard shows is what the file holds.

async function setup() {
  const org = await createOrganization({ name: "Filter Co" });
  const user = await createUser(org.id, { role: "admin" });
  await db().updateTable("users").set({ time_zone: "UTC", rounding_precision: 3 }).where("id", "=", user.id).execute();
  const storage = await createStorage(org.id, { name: "North landing" });
  await createCustomField(org.id, { key: "harvest_block", name: "Harvest block" });
  const at = new Date("2026-04-10T08:00:00Z");
  const a = await createMeasuredStack(org.id, storage.id, { seed: 21, photo: false, takenAt: at, lengthM: 3 });
  const b = await createMeasuredStack(org.id, storage.id, { seed: 22, photo: false, takenAt: at, lengthM: 4.9 });
  const c = await createMeasuredStack(org.id, storage.id, { seed: 23, photo: false, takenAt: at, lengthM: 4.9 });
  const tag = (id: number, block: string) =>
    db()
      .updateTable("measurements")
      .set({ custom_fields: JSON.stringify({ harvest_block: block }) })
      .where("id", "=", id)
      .execute();
  await tag(a.id, "B-12");
  await tag(b.id, "B-12");
  await tag(c.id, "C-07");
  return { org, user, storage, a, b, c, token: await apiToken(user.id), cookie: await webCookie(user.id) };
}

describe("Excel exports with the dashboard's filters", () => {
  it("dashboard_excel honours custom fields and the log length range, as the dashboard does", async () => {
    const s = await setup();
    const filter = {
      taken_at_start: "01.04.2026",
      taken_at_end: "30.04.2026",
      "custom_fields[harvest_block]": "B-12",
      length_range_start: "4",
    };
    // The dashboard API with the same filter sees exactly one measurement: b.
    const params = new URLSearchParams({ ...filter, measurements_included: "true" });
    const dashboard = await api(`/api/web_app/dashboard_filter?${params}`, { token: s.token });
    expect(dashboard.status).toBe(200);
    expect(JSON.stringify(dashboard.data)).toContain(`"logs_count":${s.b.logsCount}`);

    const res = await api("/api/web_app/excel_exports", {
      token: s.token,
      json: { report_type: "dashboard_excel", ...filter },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    expect((await waitForExport(res.data.id)).status).toBe(1);
    const wb = await readXlsx((await download(res.data.id, { cookie: s.cookie })).body);
    const measurements = wb.getWorksheet("Measurements")!;
    expect(measurements.rowCount).toBe(2);
    expect(measurements.getRow(2).getCell(1).value).toBe(s.b.id);
  });

  it("log_by_log_excel without ids exports the logs of the measurements the filter selects", async () => {
    const s = await setup();
    const res = await api("/api/web_app/excel_exports", {
      token: s.token,
      json: {
        report_type: "log_by_log_excel",
        taken_at_start: "2026-04-01",
        taken_at_end: "2026-04-30",
        "custom_fields[harvest_block]": "B-12",
      },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    expect((await waitForExport(res.data.id)).status).toBe(1);
    const ws = (await readXlsx((await download(res.data.id, { cookie: s.cookie })).body)).worksheets[0];
    expect(ws.rowCount).toBe(1 + s.a.logsCount + s.b.logsCount);
  });

  it("refuses bad filter values with 422 naming the field, and changes nothing", async () => {
    const s = await setup();
    const before = await snapshotTables();
    const res = await api("/api/web_app/excel_exports", {
      token: s.token,
      json: { report_type: "dashboard_excel", taken_at_start: "31.02.2026", storage_ids: "1,x" },
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.data.errors).sort()).toEqual(["storage_ids", "taken_at_start"]);
    expect(await snapshotTables()).toEqual(before);
  });
});
