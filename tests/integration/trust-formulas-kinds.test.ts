import { describe, expect, it } from "vitest";
import {
  createMeasurement,
  createOrganization,
  createStorage,
  createUser,
  givePlan,
  sharePublicly,
  webCookie,
} from "#tests/factories";
import { containerOrg, createContainerMeasurement, REFERENCE } from "#tests/helpers/containers";
import { api, baseUrl } from "#tests/helpers/http";
import { computeContainerMeasurement } from "~/domain/container";
import { compareFormulas, type FormulaComparisonRow } from "~/domain/formula-comparison";
import { truckDiameterFigures } from "~/domain/shipment";
import { insertTruckDiameterMeasurement } from "~/models/shipment.server";
import { db } from "~/utils/db.server";
import { formatsFor } from "~/utils/use-format";

// Issue 24's last gaps (docs/decisions/024-trust.md): every formula side by side on the container
// and truck-diameter detail pages (the shared trust loader and component), each row's total and
// difference equal to app/domain's figures computed afresh from the logs' pixels, in the user's
// unit; and the original photo's SHA-256 on the public container, bill-of-lading and storage pages.

const nb = (s: string | undefined) => s?.replace(/&nbsp;|\u00a0/g, " ");

async function formatsOf(userId: number) {
  const u = await db().selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
  return formatsFor({ locale: u.locale, timeZone: u.time_zone, precision: u.rounding_precision, unit: u.volume_unit });
}

function cell(html: string, testId: string) {
  return nb(new RegExp(`data-testid="${testId}"[^>]*>([^<]*)<`).exec(html)?.[1]);
}

/** Every row of the page's formula table is app/domain's, in the user's unit. */
function expectTable(html: string, rows: FormulaComparisonRow[], f: ReturnType<typeof formatsFor>) {
  expect(html).toContain('data-testid="formula-table"');
  for (const r of rows) {
    const total = cell(html, `formula-${r.formula}-total`);
    if (r.totalM3 === null) expect(total, r.formula).not.toMatch(/\d/);
    else expect(total, r.formula).toBe(nb(f.volume(r.totalM3)));
    const diff = cell(html, `formula-${r.formula}-difference`);
    if (r.own || r.differenceM3 === null) expect(diff, r.formula).toBe("-");
    else {
      const text = nb(f.volume(Math.abs(r.differenceM3)));
      expect(diff, r.formula).toBe(r.differenceM3 > 0 ? `+${text}` : r.differenceM3 < 0 ? `−${text}` : text);
    }
  }
  expect(rows.filter((r) => r.totalM3 !== null).length).toBeGreaterThanOrEqual(6);
}

describe("every formula side by side on the other photographed kinds", () => {
  it("container: the rows are app/domain's from the logs' pixels; JAS is its own and equals the stored volume", async () => {
    const a = await containerOrg("admin");
    await givePlan(a.org.id);
    const id = await createContainerMeasurement(a.org.id, a.storage.id);
    const m = await db()
      .selectFrom("container_measurements")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    // 30, 16 and 13.2 cm at 4 m (tests/helpers/containers.ts), recomputed from the pixels.
    const computed = computeContainerMeasurement(
      [75, 40, 33].map((r, i) => ({ x: 100 + i * 160, y: 200, r })),
      { references: [REFERENCE], logLengthM: 4 },
    );
    const rows = compareFormulas({ diametersCm: computed.logs.map((l) => l.d), lengthM: 4, ownFormula: "jas" });
    const jas = rows.find((r) => r.formula === "jas")!;
    expect(jas.own).toBe(true);
    expect(jas.totalM3).toBeCloseTo(m.volume, 9);
    expect(m.volume).toBeCloseTo(0.53, 9);

    const page = await api(`/measurements/container/${id}`, { cookie: await webCookie(a.user.id) });
    expect(page.status).toBe(200);
    expectTable(page.data, rows, await formatsOf(a.user.id));
    expect(page.data).toMatch(
      /data-testid="formula-jas"[^>]*class="row-selected"|class="row-selected"[^>]*data-testid="formula-jas"/,
    );
  });

  it("truck_diameter: the rows are app/domain's from the logs' pixels and the reference scale", async () => {
    const org = await createOrganization({ cmpc_enabled: true });
    await givePlan(org.id);
    const user = await createUser(org.id, { role: "measurer" });
    const storage = await createStorage(org.id, { name: "Mill gate" });
    const REF = [{ x1: 0, y1: 500, x2: 400, y2: 500, size: 1 }];
    const pixels = [40, 60, 55].map((r, i) => ({ x: 100 + i * 150, y: 100, r }));
    const id = await insertTruckDiameterMeasurement(
      db(),
      { organizationId: org.id },
      {
        storage_id: storage.id,
        taken_at: new Date("2026-11-20T08:00:00Z"),
        shipment_number: "S-1",
        measurement_type_id: 1,
        log_length: 3,
        trailer_license_plate: "TR-1",
        load_bed_name: "Trailer",
        detector: "yolo-logs-v3",
        logs: pixels,
        references: REF,
      },
    );
    const m = await db()
      .selectFrom("truck_diameter_measurements")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    const computed = truckDiameterFigures(pixels, { references: REF, formula: m.volume_formula, logLengthM: 3 });
    // 400 px per metre: r 40, 60, 55 px are 20, 30 and 27.5 cm.
    expect(computed.logs.map((l) => Number(l.d.toFixed(6)))).toEqual([20, 30, 27.5]);
    const rows = compareFormulas({
      diametersCm: computed.logs.map((l) => l.d),
      lengthM: 3,
      ownFormula: m.volume_formula,
    });
    expect(rows.find((r) => r.own)!.totalM3).toBeCloseTo(m.volume, 9);

    const page = await api(`/measurements/cmpc/truck_diameter/${id}`, { cookie: await webCookie(user.id) });
    expect(page.status).toBe(200);
    expectTable(page.data, rows, await formatsOf(user.id));
  });
});

describe("the original photo's SHA-256 on the public container pages", () => {
  it("the public container and bill-of-lading pages show each measurement's stored photo_sha256", async () => {
    const a = await containerOrg();
    const W = "/api/web_app/containers";
    const bill = (await api(`${W}/bill_of_ladings`, { token: a.token, json: { bill_of_lading: { name: "BL-H" } } }))
      .data.data as { id: number; token: string };
    await api(`${W}/containers`, { token: a.token, json: { container: { bill_of_lading_id: bill.id, name: ["H1"] } } });
    const container = (await api(`${W}/containers?bol_id=${bill.id}`, { token: a.token })).data.data[0] as {
      id: number;
      token: string;
    };
    const withHash = await createContainerMeasurement(a.org.id, a.storage.id, { containerId: container.id });
    const without = await createContainerMeasurement(a.org.id, a.storage.id, { containerId: container.id });
    const sha = "9f".repeat(32);
    await db().updateTable("container_measurements").set({ photo_sha256: sha }).where("id", "=", withHash).execute();
    const stored = await db()
      .selectFrom("container_measurements")
      .select("photo_sha256")
      .where("id", "=", withHash)
      .executeTakeFirstOrThrow();

    for (const path of [`/public_container/${container.token}`, `/public_bill_of_lading/${bill.token}`]) {
      const res = await fetch(`${baseUrl()}${path}`);
      expect(res.status, path).toBe(200);
      const html = await res.text();
      const shown = new RegExp(
        `<code[^>]*title="([0-9a-f]{64})"[^>]*data-testid="public-container-measurement-${withHash}-sha256"[^>]*>([0-9a-f]+)<`,
      ).exec(html);
      expect(shown?.[1], path).toBe(stored.photo_sha256);
      expect(shown?.[2], path).toBe(stored.photo_sha256);
      expect(html, path).not.toContain(`public-container-measurement-${without}-sha256`);
    }
  });
});

describe("the original photo's SHA-256 on the public storage page", () => {
  it("each measurement's card shows its stored photo_sha256, none where it is not recorded", async () => {
    const org = await createOrganization();
    const storage = await createStorage(org.id, { name: "Shared yard" });
    const withHash = await createMeasurement(org.id, storage.id, { volume: 1.2 });
    const without = await createMeasurement(org.id, storage.id, { volume: 0.8 });
    const sha = "a1".repeat(32);
    await db().updateTable("measurements").set({ photo_sha256: sha }).where("id", "=", withHash.id).execute();
    const { path } = await sharePublicly(org.id, "storage", storage.id);
    const res = await fetch(`${baseUrl()}${path}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const shown = new RegExp(
      `<code[^>]*title="([0-9a-f]{64})"[^>]*data-testid="public-measurement-${withHash.id}-sha256"[^>]*>([0-9a-f]+)<`,
    ).exec(html);
    expect(shown?.[1]).toBe(sha);
    expect(shown?.[2]).toBe(sha);
    expect(html).not.toContain(`public-measurement-${without.id}-sha256`);
  });
});
