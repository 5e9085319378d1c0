import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { seedContainers } from "#db/seed/containers";
import { seedDemo } from "#db/seed/demo";
import { containerOrg, createContainerMeasurement } from "#tests/helpers/containers";
import { api, baseUrl } from "#tests/helpers/http";
import { computeContainerMeasurement, jasTally } from "~/domain/container";
import { formatVolume } from "~/domain/format";
import { fileStorage } from "~/services/file-storage.server";
import { db } from "~/utils/db.server";

// The public container and bill-of-lading pages and their JSON reads (docs/decisions/022-containers.md,
// 013-public-links.md), signed out. Hand-computed figures (as containers-api.test.ts): logs of
// radius 75, 40 and 33 px at 5 px/cm are JAS 30, 16 and 13 cm; at 4 m 0.36 + 0.1024 + 0.0676 =
// 0.53 m³ and 3 logs per measurement.

const W = "/api/web_app/containers";
const ONE = 0.53;

async function get(path: string) {
  const response = await fetch(`${baseUrl()}${path}`, { redirect: "manual" });
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, body, text: body.toString("utf8") };
}

function expectPublicHeaders(headers: Headers) {
  expect(headers.get("cache-control")).toBe("no-store");
  expect(headers.get("x-robots-tag")).toBe("noindex, nofollow");
  expect(headers.get("referrer-policy")).toBe("no-referrer");
}

/** Keys naming other records (…_id, user, device, email, price) anywhere in a JSON answer. */
function idKeys(value: unknown, path = ""): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => idKeys(v, `${path}[${i}]`));
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([k, v]) => [
      ...(/(_id|_ids|user|device|email|price|comment|custom)/i.test(k) ? [`${path}.${k}`] : []),
      ...idKeys(v, `${path}.${k}`),
    ]);
  return [];
}

/**
 * An organisation with two bills: BL-A with containers A1 (two measurements, one with a
 * thumbnail, one deleted beside them) and A2 (one measurement), BL-B with B1; strings that no
 * answer of BL-A or A1 may show.
 */
async function world() {
  const marker = `c${Math.random().toString(36).slice(2, 9)}`;
  const a = await containerOrg();
  await db()
    .updateTable("organizations")
    .set({ name: `Port ${marker} Ltd` })
    .where("id", "=", a.org.id)
    .execute();
  const bill = async (name: string) => {
    const r = await api(`${W}/bill_of_ladings`, { token: a.token, json: { bill_of_lading: { name } } });
    expect(r.status, JSON.stringify(r.data)).toBe(201);
    return r.data.data as { id: number; token: string };
  };
  const billA = await bill(`BL-A ${marker}`);
  const billB = await bill(`BL-B ${marker}`);
  const containers = async (billId: number, names: string[]) => {
    const r = await api(`${W}/containers`, {
      token: a.token,
      json: { container: { bill_of_lading_id: billId, name: names, tare_weight: 2200, net_weight: 24500 } },
    });
    expect(r.status, JSON.stringify(r.data)).toBe(201);
    const list = (await api(`${W}/containers?bol_id=${billId}`, { token: a.token })).data.data as Array<{
      id: number;
      name: string;
      token: string;
    }>;
    return names.map((n) => list.find((c) => c.name === n)!);
  };
  const [a1, a2] = await containers(billA.id, [`A1 ${marker}`, `A2 ${marker}`]);
  const [b1] = await containers(billB.id, [`B1 ${marker}`]);
  await api(`${W}/containers/${a1!.id}`, {
    token: a.token,
    method: "PATCH",
    json: { container: { seal_number: `SEAL-${marker}`, width: "2.35", height: "2.39" } },
  });
  const m1 = await createContainerMeasurement(a.org.id, a.storage.id, {
    containerId: a1!.id,
    comment: `Comment ${marker}`,
  });
  const m2 = await createContainerMeasurement(a.org.id, a.storage.id, { containerId: a1!.id, radii: [75, 40] });
  const gone = await createContainerMeasurement(a.org.id, a.storage.id, { containerId: a1!.id, radii: [90, 90] });
  await db().updateTable("container_measurements").set({ deleted_at: new Date() }).where("id", "=", gone).execute();
  const m3 = await createContainerMeasurement(a.org.id, a.storage.id, { containerId: a2!.id });
  const mb = await createContainerMeasurement(a.org.id, a.storage.id, { containerId: b1!.id, radii: [60] });
  const thumb = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#3a6" } })
    .jpeg()
    .toBuffer();
  for (const id of [m1, mb]) {
    const key = `container_measurements/${id}/thumbnail.jpg`;
    await fileStorage().put(key, thumb);
    await db().updateTable("container_measurements").set({ photo_thumbnail_key: key }).where("id", "=", id).execute();
  }
  const other = await containerOrg();
  const secrets = [`BL-B ${marker}`, `B1 ${marker}`, `Comment ${marker}`, a.user.email, "Port yard"];
  return { marker, a, billA, billB, a1: a1!, a2: a2!, b1: b1!, m1, m2, m3, mb, gone, other, secrets };
}

function expectNoSecrets(text: string, secrets: string[]) {
  expect(
    secrets.filter((s) => text.includes(s)),
    "other records' strings in a public answer",
  ).toEqual([]);
}

describe("a shared bill of lading", () => {
  it("opens signed out as a page and JSON with its containers, measurements and JAS totals, the same as the private screens", async () => {
    const w = await world();
    const page = await get(`/public_bill_of_lading/${w.billA.token}`);
    expect(page.status).toBe(200);
    expectPublicHeaders(page.headers);
    expect(page.text).toContain(`BL-A ${w.marker}`);
    expect(page.text).toContain(`A1 ${w.marker}`);
    expect(page.text).toContain(`A2 ${w.marker}`);
    expect(page.text).toContain(`Port ${w.marker} Ltd`);
    expect(page.text).toContain(`SEAL-${w.marker}`);
    expect(page.text).toContain(`/public_bill_of_lading/${w.billA.token}/thumbnails/${w.m1}`);
    // 0.53 + (0.36 + 0.1024) + 0.53 = 1.5224 m³, 8 logs, in the page's language format.
    expect(page.text).toContain(formatVolume(1.5224, { precision: 3, unit: "m^3", locale: "en" }));
    expect(page.text).toContain('data-testid="public-logs">8<');
    expectNoSecrets(page.text, w.secrets);

    const json = await get(`${W}/bill_of_ladings/public/${w.billA.token}`);
    expect(json.status).toBe(200);
    expectPublicHeaders(json.headers);
    const data = JSON.parse(json.text).data;
    expectNoSecrets(json.text, w.secrets);
    expect(idKeys(data)).toEqual([]);
    expect(data.bill_of_lading).toMatchObject({
      name: `BL-A ${w.marker}`,
      container_count: 2,
      measurement_count: 3,
      log_count: 8,
    });
    expect(data.bill_of_lading.volume).toBeCloseTo(ONE * 2 + 0.4624, 9);
    expect(data.containers.map((c: { name: string }) => c.name)).toEqual([`A1 ${w.marker}`, `A2 ${w.marker}`]);
    expect(data.containers[0].measurements.map((m: { id: number }) => m.id).sort()).toEqual([w.m1, w.m2].sort());
    expect(data.containers[0]).toMatchObject({ tare_weight: 2200, net_weight: 24500, width: "2.35" });

    // The JAS tally: the stored per-log figures grouped as app/domain/container.ts jasTally groups
    // the logs computed afresh from the pixels.
    const computed = [
      [75, 40, 33],
      [75, 40],
      [75, 40, 33],
    ].flatMap(
      (radii) =>
        computeContainerMeasurement(
          radii.map((r, i) => ({ x: 100 + i * 160, y: 200, r })),
          { references: [{ x1: 0, y1: 100, x2: 500, y2: 100, size: 1 }], logLengthM: 4 },
        ).logs,
    );
    const tally = jasTally(computed.map((l) => ({ jasD: l.jasD, lengthM: 4, v: l.v })));
    expect(
      data.tally.map((r: { jas_diameter: number; length: number; log_count: number }) => [
        r.jas_diameter,
        r.length,
        r.log_count,
      ]),
    ).toEqual(tally.rows.map((r) => [r.jasDiameterCm, r.lengthM, r.logCount]));
    data.tally.forEach((r: { volume: number }, i: number) => expect(r.volume).toBeCloseTo(tally.rows[i]!.volumeM3, 9));
    expect(tally.logCount).toBe(8);
    expect(tally.volumeM3).toBeCloseTo(data.bill_of_lading.volume, 9);

    // The same numbers as the private screens: the bill's GET, the containers' GET and the filter's row.
    const priv = (await api(`${W}/bill_of_ladings/${w.billA.id}`, { token: w.a.token })).data.data;
    expect(data.bill_of_lading.log_count).toBe(priv.log_count);
    expect(data.bill_of_lading.volume).toBeCloseTo(priv.volume, 9);
    for (const c of data.containers) {
      const p = priv.containers.find((x: { name: string }) => x.name === c.name);
      expect([c.log_count, c.measurement_count]).toEqual([p.log_count, p.measurement_count]);
      expect(c.volume).toBeCloseTo(p.volume, 9);
    }
    const filter = (await api(`${W}/container_filter`, { token: w.a.token, json: {} })).data;
    const row = (filter.data?.bill_of_ladings ?? filter.bill_of_ladings).find(
      (b: { id: number }) => b.id === w.billA.id,
    );
    expect(row.log_count).toBe(data.bill_of_lading.log_count);
    expect(row.volume).toBeCloseTo(data.bill_of_lading.volume, 9);

    // Numbers in the visitor's language.
    const de = await get(`/public_bill_of_lading/${w.billA.token}?lng=de`);
    expect(de.text).toContain(formatVolume(1.5224, { precision: 3, unit: "m^3", locale: "de" }));
    expect(de.text).toContain("Konnossement");
  });

  it("grants only its own record: not another bill's containers or thumbnails, not as a container token", async () => {
    const w = await world();
    const thumb = await get(`/public_bill_of_lading/${w.billA.token}/thumbnails/${w.m1}`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get("content-type")).toMatch(/image\/jpeg/);
    expectPublicHeaders(thumb.headers);
    for (const url of [
      `/public_bill_of_lading/${w.billA.token}/thumbnails/${w.mb}`, // BL-B's measurement
      `/public_bill_of_lading/${w.billA.token}/thumbnails/${w.gone}`, // deleted
      `/public_bill_of_lading/${w.billA.token}/thumbnails/abc`,
      `/public_bill_of_lading/${w.billB.token}/thumbnails/${w.m1}`,
      `/public_container/${w.billA.token}`, // a bill's token is no container's
      `${W}/container/public/${w.billA.token}`,
      `/public_bill_of_lading/${w.a1.token}`, // a container's token is no bill's
      `${W}/bill_of_ladings/public/${w.a1.token}`,
    ]) {
      const r = await get(url);
      expect(r.status, url).toBe(404);
      expectPublicHeaders(r.headers);
    }
    const b = JSON.parse((await get(`${W}/bill_of_ladings/public/${w.billB.token}`)).text).data;
    expect(b.containers.map((c: { name: string }) => c.name)).toEqual([`B1 ${w.marker}`]);
    expect(JSON.stringify(b)).not.toContain(`A1 ${w.marker}`);
  });

  it("stops at once when rotated (PATCH token): the old token is the not-found page, the new one opens", async () => {
    const w = await world();
    const old = w.billA.token;
    const res = await api(`${W}/bill_of_ladings/${w.billA.id}`, {
      token: w.a.token,
      method: "PATCH",
      json: { bill_of_lading: { token: true } },
    });
    expect(res.status).toBe(200);
    const fresh = res.data.data.token as string;
    expect(fresh).not.toBe(old);
    const gone = await get(`/public_bill_of_lading/${old}`);
    expect(gone.status).toBe(404);
    expect(gone.text).toContain('data-testid="not-found"');
    expect(gone.text).toContain("This link does not open anything");
    expect((await get(`${W}/bill_of_ladings/public/${old}`)).status).toBe(404);
    expect((await get(`/public_bill_of_lading/${old}/thumbnails/${w.m1}`)).status).toBe(404);
    expect((await get(`/public_bill_of_lading/${fresh}`)).status).toBe(200);
    expect((await get(`${W}/bill_of_ladings/public/${fresh}`)).status).toBe(200);
    // Unknown and malformed tokens: the same page.
    for (const t of ["A".repeat(32), "nope"]) expect((await get(`/public_bill_of_lading/${t}`)).status).toBe(404);
  });
});

describe("a shared container", () => {
  it("opens signed out with its own measurements and JAS totals only", async () => {
    const w = await world();
    const page = await get(`/public_container/${w.a1.token}`);
    expect(page.status).toBe(200);
    expectPublicHeaders(page.headers);
    expect(page.text).toContain(`A1 ${w.marker}`);
    expect(page.text).toContain(`BL-A ${w.marker}`); // the bill it belongs to, by name
    expect(page.text).not.toContain(`A2 ${w.marker}`);
    expect(page.text).toContain(formatVolume(ONE + 0.4624, { precision: 3, unit: "m^3", locale: "en" }));
    expectNoSecrets(page.text, w.secrets);

    const json = await get(`${W}/container/public/${w.a1.token}`);
    expect(json.status).toBe(200);
    const data = JSON.parse(json.text).data;
    expect(idKeys(data)).toEqual([]);
    expectNoSecrets(json.text, [...w.secrets, `A2 ${w.marker}`]);
    expect(data.container).toMatchObject({
      name: `A1 ${w.marker}`,
      seal_number: `SEAL-${w.marker}`,
      measurement_count: 2,
      log_count: 5,
    });
    expect(data.container.measurements.map((m: { id: number }) => m.id).sort()).toEqual([w.m1, w.m2].sort());
    const priv = (await api(`${W}/containers/${w.a1.id}`, { token: w.a.token })).data.data;
    expect(data.container.log_count).toBe(priv.log_count);
    expect(data.container.volume).toBeCloseTo(priv.volume, 9);
    expect(data.tally.reduce((s: number, r: { log_count: number }) => s + r.log_count, 0)).toBe(5);
    expect(data.tally.reduce((s: number, r: { volume: number }) => s + r.volume, 0)).toBeCloseTo(priv.volume, 9);

    expect((await get(`/public_container/${w.a1.token}/thumbnails/${w.m1}`)).status).toBe(200);
    // A sibling container's measurement, another bill's, another organisation's token.
    expect((await get(`/public_container/${w.a1.token}/thumbnails/${w.m3}`)).status).toBe(404);
    expect((await get(`/public_container/${w.a1.token}/thumbnails/${w.mb}`)).status).toBe(404);
    expect((await get(`/public_container/${w.a2.token}/thumbnails/${w.m1}`)).status).toBe(404);
  });

  it("rotates on the container's PATCH: the old token stops at once", async () => {
    const w = await world();
    const res = await api(`${W}/containers/${w.a1.id}`, {
      token: w.a.token,
      method: "PATCH",
      json: { container: { token: true } },
    });
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    const fresh = (await api(`${W}/containers/${w.a1.id}`, { token: w.a.token })).data.data.token as string;
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(fresh).not.toBe(w.a1.token);
    expect((await get(`/public_container/${w.a1.token}`)).status).toBe(404);
    expect((await get(`${W}/container/public/${w.a1.token}`)).status).toBe(404);
    expect((await get(`/public_container/${fresh}`)).status).toBe(200);
    // Another organisation cannot rotate it; a viewer neither.
    const foreign = await api(`${W}/containers/${w.a1.id}`, {
      token: w.other.token,
      method: "PATCH",
      json: { token: true },
    });
    expect(foreign.status).toBe(404);
    expect((await get(`/public_container/${fresh}`)).status).toBe(200);
  });
});

describe("the demo seed", () => {
  it("shares the demo bill and its first container; their public pages show data; a second run adds nothing", async () => {
    const seeded = await seedDemo(db(), fileStorage(), async () => {}, { measurements: 2 });
    const lines: string[] = [];
    await seedContainers(db(), fileStorage(), seeded.organizationId, { log: (l) => lines.push(l) });
    const again: string[] = [];
    expect(await seedContainers(db(), fileStorage(), seeded.organizationId, { log: (l) => again.push(l) })).toBe(0);
    const pages = lines.at(-1)!.match(/\/public_[a-z_]+\/[A-Za-z0-9_-]{32}/g)!;
    expect(pages).toHaveLength(2);
    expect(again.at(-1)).toBe(lines.at(-1));
    const bill = await get(pages[0]!);
    expect(bill.status).toBe(200);
    expect(bill.text).toContain("MAEU 2611-TYO");
    expect(bill.text).toContain("MSKU 402113-6");
    const container = await get(pages[1]!);
    expect(container.status).toBe(200);
    expect(container.text).toContain("MSKU 402113-6");
    expect(container.text).toContain("EU 5519020");
    const data = JSON.parse((await get(`${W}/container/public/${pages[1]!.split("/").pop()}`)).text).data;
    expect(data.container.measurement_count).toBe(2);
    expect(data.container.volume).toBeGreaterThan(0);
  });
});
