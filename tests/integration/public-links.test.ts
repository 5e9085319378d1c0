import { createHash } from "node:crypto";
import http from "node:http";
import { Kysely, Migrator, MysqlDialect, sql } from "kysely";
import { createPool } from "mysql2";
import { createConnection } from "mysql2/promise";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { migrations } from "#db/migrations";
import type { Database } from "#db/schema";
import { seedDemo } from "#db/seed/demo";
import { seedPublicLinks } from "#db/seed/public-links";
import {
  apiToken,
  createCustomField,
  createDevice,
  createMeasuredStack,
  createOrganization,
  createStorage,
  createUser,
  sharePublicly,
  webCookie,
} from "#tests/factories";
import { databases, snapshotTables } from "#tests/helpers/db";
import { api, baseUrl } from "#tests/helpers/http";
import { formatVolume } from "~/domain/format";
import { publicLinkOf, resolvePublicToken, rotatePublicLink } from "~/models/public-link.server";
import { countPublicRequest } from "~/models/public-rate-limit.server";
import { fileStorage } from "~/services/file-storage.server";
import { makeRenditions } from "~/services/photos.server";
import { createDb, db } from "~/utils/db.server";
import { env } from "~/utils/env.server";

// Public links (docs/decisions/013-public-links.md): every public route with a valid, an unknown
// and a rotated token; the answers carry the record's figures and none of the organisation's
// other strings; the rate limit answers 429 and is counted in MySQL for every web process; the
// owner's side (create, copy, rotate, stop) on the detail page, the storage page and the dashboard.

/** An organisation full of strings that no public answer may show, with a measurement worth sharing. */
async function world(opts: { vmu?: boolean } = {}) {
  const marker = `q${Math.random().toString(36).slice(2, 9)}`;
  const org = await createOrganization({ name: `Forest ${marker} OÜ` });
  await db()
    .updateTable("organizations")
    .set({
      registration_code: `REG-${marker}`,
      address: `Street ${marker}`,
      vat_code: `VAT${marker}`,
      invoice_email: `invoices-${marker}@example.test`,
      phone: `+372${marker}`,
      contact_person: `Contact ${marker}`,
      vmu_enabled: opts.vmu ?? false,
    })
    .where("id", "=", org.id)
    .execute();
  const admin = await createUser(org.id, {
    role: "admin",
    email: `admin-${marker}@example.test`,
    name: `Admin ${marker}`,
  });
  const viewer = await createUser(org.id, { role: "viewer", email: `viewer-${marker}@example.test` });
  const storage = await createStorage(org.id, { name: `Yard ${marker}` });
  const hidden = await createStorage(org.id, { name: `Hidden yard ${marker}` });
  const m = await createMeasuredStack(org.id, storage.id, { seed: 11, lengthM: 4 });
  const device = await createDevice(org.id);
  await db()
    .updateTable("measurements")
    .set({
      comment: `Comment ${marker}`,
      shipment_number: `SHIP-${marker}`,
      device_id: device.id,
      user_id: admin.id,
      metrology: JSON.stringify({
        angle_validation: { angle: 3.25, status: 1 },
        interference: { score: 0.125, status: 1 },
        brightness: { score: 0.5, status: 0 },
        is_valid: false,
      }),
    })
    .where("id", "=", m.id)
    .execute();
  const other = await createMeasuredStack(org.id, hidden.id, { seed: 12, photo: false });
  await db()
    .updateTable("measurements")
    .set({ comment: `Other comment ${marker}` })
    .where("id", "=", other.id)
    .execute();
  // Master data of the organisation that the shared measurement does not use.
  await db()
    .insertInto("assortments")
    .values({ organization_id: org.id, name: `Price list ${marker}`, price_cents: 98765, volume_unit: "m^3" })
    .execute();
  await db()
    .insertInto("culls")
    .values({ organization_id: org.id, reason: `Unused cull ${marker}` })
    .execute();
  await createCustomField(org.id, { key: `block_${marker}`, name: `Block ${marker}` });
  const deviceName = (
    await db().selectFrom("devices").select("name").where("id", "=", device.id).executeTakeFirstOrThrow()
  ).name;
  const secrets = [
    `REG-${marker}`,
    `Street ${marker}`,
    `VAT${marker}`,
    `invoices-${marker}`,
    `+372${marker}`,
    `Contact ${marker}`,
    `admin-${marker}`,
    `Admin ${marker}`,
    `viewer-${marker}`,
    `Hidden yard ${marker}`,
    `Comment ${marker}`,
    `Other comment ${marker}`,
    `SHIP-${marker}`,
    `Price list ${marker}`,
    `Unused cull ${marker}`,
    `Block ${marker}`,
    deviceName,
    "98765",
  ];
  return { marker, org, admin, viewer, storage, hidden, m, other, secrets };
}

function expectNoSecrets(body: string, secrets: string[]) {
  const leaked = secrets.filter((s) => body.includes(s));
  expect(leaked, "organisation strings in a public answer").toEqual([]);
}

/**
 * Keys naming other records (…_id, user, device, email) anywhere in a JSON answer; the storage
 * state is the spec's fixed enumeration (1-6), not a record.
 */
function idKeys(value: unknown, path = ""): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => idKeys(v, `${path}[${i}]`));
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([k, v]) => [
      ...(/(_id|_ids|user|device|email|price)/i.test(k) && k !== "storage_state_id" ? [`${path}.${k}`] : []),
      ...idKeys(v, `${path}.${k}`),
    ]);
  return [];
}

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

/** Every public URL of a shared measurement. */
const measurementUrls = (token: string) => [
  `/public_measurement/${token}`,
  `/public_measurement/${token}.jpeg`,
  `/public_measurement/${token}/photo`,
  `/api/web_app/measurements/public/${token}`,
];

async function expectAll404(urls: string[]) {
  for (const url of urls) {
    const r = await get(url);
    expect(r.status, url).toBe(404);
    expectPublicHeaders(r.headers);
  }
}

/** A GET from another client address (127.0.0.0/8 all reach the server), for its own rate count. */
function getFrom(
  address: string,
  path: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const url = new URL(`${baseUrl()}${path}`);
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, localAddress: address },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    req.on("error", reject);
  });
}

const randomLoopback = () =>
  `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${2 + Math.floor(Math.random() * 250)}`;

describe("a shared measurement", () => {
  it("opens by its token as a page, JSON, photo and picture with its figures and none of the organisation's other strings", async () => {
    const w = await world();
    const { token, path } = await sharePublicly(w.org.id, "measurement", w.m.id);
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(path).toBe(`/public_measurement/${token}`);

    const page = await get(path);
    expect(page.status).toBe(200);
    expectPublicHeaders(page.headers);
    expect(page.text).toContain('<meta name="robots" content="noindex, nofollow"');
    const volume = formatVolume(w.m.volume, { precision: 3, unit: "m^3", locale: "en-GB" });
    for (const figure of [volume, `Yard ${w.marker}`, `Forest ${w.marker} OÜ`, `Measurement #${w.m.id}`, "Cylinder"])
      expect(page.text, figure).toContain(figure);
    expect(page.text).toContain(`data-testid="public-logs">${w.m.logsCount}<`);
    expect(page.text.match(/data-testid="overlay-log"/g)).toHaveLength(w.m.logsCount);
    expectNoSecrets(page.text, w.secrets);
    // The metrology shows on the vmu form only.
    expect(page.text).not.toContain('data-testid="metrology"');

    const json = await api(`/api/web_app/measurements/public/${token}`);
    expect(json.status).toBe(200);
    expectPublicHeaders(json.headers);
    const data = json.data.data;
    expect(data).toMatchObject({
      id: w.m.id,
      organization: { name: `Forest ${w.marker} OÜ` },
      volume: { value: w.m.volume, unit: "m^3" },
      logs_count: w.m.logsCount,
      log_length: { value: 4, unit: "m" },
      volume_formula: { key: "cylinder", name: "Cylinder" },
      storage: { name: `Yard ${w.marker}`, latitude: 58.38, longitude: 26.72 },
      photo: { url: `/public_measurement/${token}/photo`, width: 1000, height: 750 },
      jpeg_url: `/public_measurement/${token}.jpeg`,
    });
    expect(data.logs).toHaveLength(w.m.logsCount);
    expect(data.logs_sheet.summary.total_logs).toBe(w.m.logsCount);
    expect(data.logs_sheet.logs.reduce((n: number, r: { logs_count: number }) => n + r.logs_count, 0)).toBe(
      w.m.logsCount,
    );
    expect(data.logs_sheet.logs.reduce((v: number, r: { volume: number }) => v + r.volume, 0)).toBeCloseTo(
      w.m.volume,
      9,
    );
    expect(data).not.toHaveProperty("metrology");
    expect(idKeys(data)).toEqual([]);
    expectNoSecrets(JSON.stringify(json.data), w.secrets);

    const photo = await get(`/public_measurement/${token}/photo`);
    expect(photo.status).toBe(200);
    expect(photo.headers.get("content-type")).toBe("image/jpeg");
    expectPublicHeaders(photo.headers);

    const picture = await get(`/public_measurement/${token}.jpeg`);
    expect(picture.status).toBe(200);
    expect(picture.headers.get("content-type")).toBe("image/jpeg");
    expect(picture.headers.get("content-disposition")).toBe(`inline; filename="measurement-${w.m.id}.jpeg"`);
    expectPublicHeaders(picture.headers);
    const meta = await sharp(picture.body).metadata();
    // The photo at its size, and the caption band below it.
    expect(meta.width).toBe(1000);
    expect(meta.height).toBeGreaterThan(750 + 40);
    expect(meta.height).toBeLessThan(750 + 200);
    // The same version again is the stored picture, not a new drawing.
    const again = await get(`/public_measurement/${token}.jpeg`);
    expect(createHash("sha256").update(again.body).digest("hex")).toBe(
      createHash("sha256").update(picture.body).digest("hex"),
    );
  });

  it("answers 404 on every route for an unknown, a rotated and a stopped token, another kind's token and a deleted measurement", async () => {
    const w = await world();
    const { token } = await sharePublicly(w.org.id, "measurement", w.m.id);
    const storageLink = await sharePublicly(w.org.id, "storage", w.storage.id);
    await expectAll404(measurementUrls("A".repeat(32)));
    await expectAll404(measurementUrls("x"));
    await expectAll404(measurementUrls(storageLink.token));
    const unknown = await get(`/public_measurement/${"B".repeat(32)}`);
    expect(unknown.text).toContain('data-testid="not-found"');
    expect(unknown.text).toContain('<meta name="robots" content="noindex, nofollow"');

    // Rotated from the detail page's dialog: the old token stops at once, the new one opens.
    const cookie = await webCookie(w.admin.id);
    const rotate = await api(`/measurements/timber/${w.m.id}`, { cookie, form: { intent: "public-link-rotate" } });
    expect(rotate.status).toBe(302);
    const rotated = (await publicLinkOf(db(), { organizationId: w.org.id }, "measurement", w.m.id))!;
    expect(rotated.token).not.toBe(token);
    expect(rotated.rotatedAt).not.toBeNull();
    await expectAll404(measurementUrls(token));
    for (const url of measurementUrls(rotated.token!)) expect((await get(url)).status, url).toBe(200);

    // Stopped: nothing opens.
    const stop = await api(`/measurements/timber/${w.m.id}`, { cookie, form: { intent: "public-link-stop" } });
    expect(stop.status).toBe(302);
    await expectAll404(measurementUrls(rotated.token!));

    // Shared again, then the measurement is deleted: gone for the recipient too.
    const again = await sharePublicly(w.org.id, "measurement", w.m.id);
    expect((await get(again.path)).status).toBe(200);
    await db().updateTable("measurements").set({ deleted_at: new Date() }).where("id", "=", w.m.id).execute();
    await expectAll404(measurementUrls(again.token));
  });

  it("notes when the link was last opened: pages, JSON and the picture count, the page's photo does not", async () => {
    const w = await world();
    const { token } = await sharePublicly(w.org.id, "measurement", w.m.id);
    const opened = async () =>
      (
        await db()
          .selectFrom("public_links")
          .select("last_opened_at")
          .where("record_id", "=", w.m.id)
          .where("kind", "=", "measurement")
          .executeTakeFirstOrThrow()
      ).last_opened_at;
    expect((await get(`/public_measurement/${token}/photo`)).status).toBe(200);
    expect(await opened()).toBeNull();
    const before = Date.now();
    expect((await get(`/api/web_app/measurements/public/${token}`)).status).toBe(200);
    expect((await opened())!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    // The owner sees it in the dialog.
    const detail = await api(`/measurements/timber/${w.m.id}`, { cookie: await webCookie(w.admin.id) });
    expect(detail.data).toContain('data-testid="last-opened"');
    expect(detail.data).toContain("Last opened");
  });

  it("has the metrology form /vmu_public only for organisations with the vmu flag", async () => {
    const plain = await world();
    const plainLink = await sharePublicly(plain.org.id, "measurement", plain.m.id);
    expect((await get(`/vmu_public/${plainLink.token}`)).status).toBe(404);

    const vmu = await world({ vmu: true });
    const { token, path } = await sharePublicly(vmu.org.id, "measurement", vmu.m.id);
    expect(path).toBe(`/vmu_public/${token}`);
    const page = await get(path);
    expect(page.status).toBe(200);
    expectPublicHeaders(page.headers);
    expect(page.text).toContain('data-testid="metrology"');
    expect(page.text).toContain("3.3°");
    expect(page.text).toContain("0.13");
    expectNoSecrets(page.text, vmu.secrets);
    // The standard page still opens with the same token; the JSON carries the metrology for vmu organisations.
    expect((await get(`/public_measurement/${token}`)).status).toBe(200);
    const json = await api(`/api/web_app/measurements/public/${token}`);
    expect(json.data.data.metrology).toMatchObject({ is_valid: false, angle_validation: { angle: 3.25, status: 1 } });
    // The detail page's dialog gives the vmu form.
    const detail = await api(`/measurements/timber/${vmu.m.id}`, { cookie: await webCookie(vmu.admin.id) });
    expect(detail.data).toContain(`${baseUrl()}/vmu_public/${token}`);
  });
});

describe("a shared storage", () => {
  it("shows its totals and its measurements a page at a time, linking only the shared ones", async () => {
    const w = await world();
    const extra = [];
    for (let i = 0; i < 21; i++)
      extra.push(
        await createMeasuredStack(w.org.id, w.storage.id, {
          seed: 30 + i,
          photo: false,
          takenAt: new Date(Date.now() - (i + 1) * 3600_000),
        }),
      );
    await makeRenditions(db(), fileStorage(), "timber", w.m.id);
    const shared = await sharePublicly(w.org.id, "measurement", w.m.id);
    const { token, path } = await sharePublicly(w.org.id, "storage", w.storage.id);
    expect(path).toBe(`/public_storage/${token}`);
    const total = [w.m, ...extra];

    const page = await get(path);
    expect(page.status).toBe(200);
    expectPublicHeaders(page.headers);
    expect(page.text).toContain(`Yard ${w.marker}`);
    expect(page.text).toContain(`data-testid="public-measurements-count">22<`);
    const volume = total.reduce((v, m) => v + m.volume, 0);
    expect(page.text).toContain(formatVolume(volume, { precision: 3, unit: "m^3", locale: "en-GB" }));
    expect(page.text).toContain("Page 1 of 2");
    // The newest (the shared one) links to its own public page; the others do not link anywhere.
    expect(page.text).toContain(`href="/public_measurement/${shared.token}"`);
    expect(page.text.match(/data-testid="public-link-/g)).toHaveLength(1);
    expect(page.text).toContain(`/public_storage/${token}/thumbnails/${w.m.id}`);
    expectNoSecrets(page.text, w.secrets);

    const json = await api(`/api/web_app/storages/public/${token}/2`);
    expect(json.status).toBe(200);
    expectPublicHeaders(json.headers);
    expect(json.data).toMatchObject({
      page: 2,
      total_pages: 2,
      storage: {
        name: `Yard ${w.marker}`,
        storage_state_id: 2,
        logs_count: total.reduce((n, m) => n + m.logsCount, 0),
        measurements_count: 22,
        volume: { value: expect.closeTo(volume, 9), unit: "m^3" },
      },
    });
    expect(json.data.storage.measurements).toHaveLength(2);
    expect(json.data.storage.measurements.every((m: { public_url: unknown }) => m.public_url === null)).toBe(true);
    const keys = idKeys(json.data);
    expect(keys).toEqual([]);
    expectNoSecrets(JSON.stringify(json.data), w.secrets);

    // Thumbnails of the storage's own measurements only.
    const thumb = await get(`/public_storage/${token}/thumbnails/${w.m.id}`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get("content-type")).toBe("image/jpeg");
    expect((await get(`/public_storage/${token}/thumbnails/${w.other.id}`)).status).toBe(404);
    expect((await get(`/public_storage/${token}/thumbnails/abc`)).status).toBe(404);

    // Pages that do not exist.
    for (const url of [
      `/api/web_app/storages/public/${token}/3`,
      `/api/web_app/storages/public/${token}/0`,
      `${path}?page=abc`,
      `${path}?page=9`,
    ])
      expect((await get(url)).status, url).toBe(404);
  });

  it("answers 404 for unknown, rotated, stopped and deleted, and for a measurement's token", async () => {
    const w = await world();
    const { token } = await sharePublicly(w.org.id, "storage", w.storage.id);
    const measurement = await sharePublicly(w.org.id, "measurement", w.m.id);
    const urls = (t: string) => [
      `/public_storage/${t}`,
      `/api/web_app/storages/public/${t}/1`,
      `/public_storage/${t}/thumbnails/${w.m.id}`,
    ];
    await expectAll404(urls("C".repeat(32)));
    await expectAll404(urls(measurement.token));
    // Rotated from the storage page.
    const cookie = await webCookie(w.admin.id);
    expect((await api(`/storages/${w.storage.id}`, { cookie, form: { intent: "public-link-rotate" } })).status).toBe(
      302,
    );
    const rotated = (await publicLinkOf(db(), { organizationId: w.org.id }, "storage", w.storage.id))!;
    await expectAll404(urls(token));
    expect((await get(`/public_storage/${rotated.token}`)).status).toBe(200);
    // Deleting the storage stops its link.
    expect((await api(`/storages/${w.storage.id}`, { cookie, form: { intent: "delete" } })).status).toBe(302);
    await expectAll404(urls(rotated.token!));
    expect(await publicLinkOf(db(), { organizationId: w.org.id }, "storage", w.storage.id)).toBeNull();
  });
});

describe("the owner's side", () => {
  it("creates, shows, rotates and stops links from the detail page, the storage page and the dashboard", async () => {
    const w = await world();
    const cookie = await webCookie(w.admin.id);
    // Not shared yet: the dialog offers to create.
    let detail = await api(`/measurements/timber/${w.m.id}`, { cookie });
    expect(detail.data).toContain('data-testid="public-link-none"');
    expect(detail.data).toContain('data-testid="create-public-link"');
    const made = await api(`/measurements/timber/${w.m.id}`, { cookie, form: { intent: "public-link-create" } });
    expect(made.status).toBe(302);
    expect(made.headers.get("location")).toBe(`/measurements/timber/${w.m.id}`);
    const link = (await publicLinkOf(db(), { organizationId: w.org.id }, "measurement", w.m.id))!;
    // Creating twice keeps the one link.
    await api(`/measurements/timber/${w.m.id}`, { cookie, form: { intent: "public-link-create" } });
    expect((await publicLinkOf(db(), { organizationId: w.org.id }, "measurement", w.m.id))!.token).toBe(link.token);
    detail = await api(`/measurement/${w.m.id}`, { cookie });
    expect(detail.data).toContain(`value="${baseUrl()}/public_measurement/${link.token}"`);
    // The spec's `token` field of the measurement.
    const token = await apiToken(w.admin.id);
    expect((await api(`/api/web_app/measurements/${w.m.id}`, { token })).data.data.token).toBe(link.token);

    // The dashboard row menu: the hidden storage has no link; its "Create public link" makes one, then "Copy" copies it.
    await db().deleteFrom("public_links").where("kind", "=", "storage").where("record_id", "=", w.hidden.id).execute();
    const made2 = await api(`/measurements/timber?index`, {
      cookie,
      form: { intent: "public-link-create", storage_id: String(w.hidden.id) },
    });
    expect(made2.status).toBe(302);
    const storageLink = (await publicLinkOf(db(), { organizationId: w.org.id }, "storage", w.hidden.id))!;
    const filter = await api("/api/web_app/dashboard_filter", { token });
    const row = filter.data.storages.find((s: { id: number }) => s.id === w.hidden.id);
    expect(row.token).toBe(storageLink.token);
    const dashboard = await api(`/measurements/timber?open=${w.hidden.id}`, { cookie });
    expect(dashboard.data).toContain(`data-link="${baseUrl()}/public_storage/${storageLink.token}"`);

    // The storage page shows it, with "last opened".
    const storagePage = await api(`/storages/${w.hidden.id}`, { cookie });
    expect(storagePage.data).toContain(`value="${baseUrl()}/public_storage/${storageLink.token}"`);
    expect(storagePage.data).toContain("Not opened yet");
  });

  it("a viewer sees an existing link but may not create, rotate or stop one; another organisation's record is 404", async () => {
    const w = await world();
    const viewerCookie = await webCookie(w.viewer.id);
    const before = await snapshotTables();
    const refused = await api(`/measurements/timber/${w.m.id}`, {
      cookie: viewerCookie,
      form: { intent: "public-link-create" },
    });
    expect(refused.status).toBe(302);
    expect(await snapshotTables()).toEqual(before);
    const { token } = await sharePublicly(w.org.id, "measurement", w.m.id);
    const detail = await api(`/measurements/timber/${w.m.id}`, { cookie: viewerCookie });
    expect(detail.data).toContain(`/public_measurement/${token}`);
    expect(detail.data).not.toContain('data-testid="rotate-public-link"');
    expect(detail.data).not.toContain('data-testid="stop-public-link"');
    for (const intent of ["public-link-rotate", "public-link-stop"]) {
      const snapshot = await snapshotTables();
      await api(`/measurements/timber/${w.m.id}`, { cookie: viewerCookie, form: { intent } });
      expect(await snapshotTables()).toEqual(snapshot);
    }

    const outsider = await createOrganization();
    const outsiderAdmin = await createUser(outsider.id, { role: "admin" });
    const outsiderCookie = await webCookie(outsiderAdmin.id);
    const snapshot = await snapshotTables();
    for (const intent of ["public-link-create", "public-link-rotate", "public-link-stop"]) {
      const r = await api(`/measurements/timber/${w.m.id}`, { cookie: outsiderCookie, form: { intent } });
      expect(r.status).toBe(404);
      const s = await api(`/measurements/timber?index`, {
        cookie: outsiderCookie,
        form: { intent, storage_id: String(w.storage.id) },
      });
      expect(s.status).toBe(404);
    }
    expect(await snapshotTables()).toEqual(snapshot);
  });

  it("a token kept from before links were stored hashed opens its page, is not shown, and is replaced on create", async () => {
    const w = await world();
    const legacy = "legacy-token-of-a-storage-0123456789";
    await db()
      .insertInto("public_links")
      .values({
        organization_id: w.org.id,
        kind: "storage",
        record_id: w.storage.id,
        token_hash: createHash("sha256").update(legacy).digest("hex"),
        token_seed: null,
      })
      .onDuplicateKeyUpdate({ token_hash: createHash("sha256").update(legacy).digest("hex"), token_seed: null })
      .execute();
    expect((await get(`/public_storage/${legacy}`)).status).toBe(200);
    const cookie = await webCookie(w.admin.id);
    const page = await api(`/storages/${w.storage.id}`, { cookie });
    expect(page.data).toContain('data-testid="public-link-hidden"');
    expect(page.data).not.toContain(legacy);
    await api(`/storages/${w.storage.id}`, { cookie, form: { intent: "public-link-create" } });
    const link = (await publicLinkOf(db(), { organizationId: w.org.id }, "storage", w.storage.id))!;
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect((await get(`/public_storage/${legacy}`)).status).toBe(404);
    expect((await get(`/public_storage/${link.token}`)).status).toBe(200);
  });
});

describe("the token mechanism", () => {
  it("does the same work for a valid, a rotated, an unknown and a malformed token: one hash, one indexed lookup", async () => {
    const w = await world();
    const { token } = await sharePublicly(w.org.id, "measurement", w.m.id);
    const old = await sharePublicly(w.org.id, "storage", w.storage.id);
    await rotatePublicLink(db(), { organizationId: w.org.id }, "storage", w.storage.id);
    const queries: string[] = [];
    const logged = new Kysely<Database>({
      dialect: new MysqlDialect({ pool: createPool({ uri: databases().mysqlUrl, connectionLimit: 1, timezone: "Z" }) }),
      log: (event) => {
        if (event.level === "query") queries.push(event.query.sql);
      },
    });
    try {
      const runs: Array<{ sql: string[]; found: boolean }> = [];
      for (const t of [token, old.token, "D".repeat(32), "", "../../etc/passwd", "é".repeat(500)]) {
        queries.length = 0;
        const grant = await resolvePublicToken(logged, t);
        runs.push({ sql: [...queries], found: grant !== null });
      }
      expect(runs.map((r) => r.found)).toEqual([true, false, false, false, false, false]);
      for (const r of runs) expect(r.sql).toEqual(runs[0].sql);
      expect(runs[0].sql).toHaveLength(1);
      expect(runs[0].sql[0]).toMatch(/where `l`\.`token_hash` = \?/);
    } finally {
      await logged.destroy();
    }
  });

  it("keeps no token: only its SHA-256 and a seed that gives it back only with the server's secret", async () => {
    const w = await world();
    const { token } = await sharePublicly(w.org.id, "measurement", w.m.id);
    const row = await db()
      .selectFrom("public_links")
      .selectAll()
      .where("record_id", "=", w.m.id)
      .where("kind", "=", "measurement")
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.token_seed).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // 192 bits of token from a 128-bit random seed; different links never share one.
    const tokens = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const s = await createStorage(w.org.id);
      tokens.add((await sharePublicly(w.org.id, "storage", s.id)).token);
    }
    expect(tokens.size).toBe(20);
  });
});

describe("rate limiting of the public routes", () => {
  it("answers 429 once an address is over its limit a minute, for that address only", async () => {
    const limit = env().PUBLIC_RATE_LIMIT;
    const address = randomLoopback();
    const w = await world();
    const { token } = await sharePublicly(w.org.id, "measurement", w.m.id);
    expect((await getFrom(address, `/api/web_app/measurements/public/${token}`)).status).toBe(200);
    // Counted in MySQL, as every web process counts: this address's window (and the next one, in
    // case the minute turns during the test) is used up.
    const now = Date.now();
    for (const at of [now, now + 60_000])
      for (let i = 0; i < limit; i++) await countPublicRequest(db(), address, limit, new Date(at));
    const refused = await getFrom(address, `/api/web_app/measurements/public/${token}`);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text)).toEqual({ error: "too_many_requests" });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(60);
    expect(refused.headers["cache-control"]).toBe("no-store");
    // Every public route, pages and files too, and before any token is looked at.
    for (const url of [
      `/public_measurement/${token}`,
      `/public_measurement/${token}.jpeg`,
      `/public_storage/${"E".repeat(32)}`,
    ]) {
      const r = await getFrom(address, url);
      expect(r.status, url).toBe(429);
    }
    const page = await getFrom(address, `/public_storage/${"E".repeat(32)}`);
    expect(page.text).toContain('data-testid="too-many-requests"');
    // Another address is not affected.
    expect((await getFrom(randomLoopback(), `/api/web_app/measurements/public/${token}`)).status).toBe(200);
  });

  it("counts exactly across processes: two pools adding at once never both get the same count", async () => {
    const a = createDb(databases().mysqlUrl, 4);
    const b = createDb(databases().mysqlUrl, 4);
    try {
      const now = new Date();
      const client = randomLoopback();
      const results = await Promise.all(
        Array.from({ length: 120 }, (_, i) => countPublicRequest(i % 2 ? a : b, client, 100, now)),
      );
      expect(results.map((r) => r.hits).sort((x, y) => x - y)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
      expect(results.filter((r) => r.allowed)).toHaveLength(100);
    } finally {
      await a.destroy();
      await b.destroy();
    }
  });
});

describe("the migration of plain tokens", () => {
  it("moves storages' and measurements' tokens into public links by their hash, and back down", async () => {
    const name = `timber_pl_migration_${Date.now().toString(36)}`;
    const root = new URL(databases().mysqlUrl);
    root.pathname = "/";
    const conn = await createConnection({ uri: root.toString() });
    await conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
    root.pathname = `/${name}`;
    const scratch = createDb(root.toString(), 2);
    try {
      const migrator = new Migrator({ db: scratch, provider: { getMigrations: async () => migrations } });
      const before = await migrator.migrateTo("2026_11_23_0011_security_hardening");
      expect(before.error).toBeUndefined();
      const any = scratch as unknown as Kysely<any>;
      const org = await any
        .insertInto("organizations")
        .values({ name: "Old org", features: "[]" })
        .executeTakeFirstOrThrow();
      const orgId = Number(org.insertId);
      const storage = await any
        .insertInto("storages")
        .values({ organization_id: orgId, name: "Old yard", token: "old-storage-token" })
        .executeTakeFirstOrThrow();
      await any
        .insertInto("storages")
        .values({ organization_id: orgId, name: "Deleted yard", token: "deleted-token", deleted_at: new Date() })
        .execute();
      const m = await any
        .insertInto("measurements")
        .values({
          organization_id: orgId,
          storage_id: Number(storage.insertId),
          taken_at: new Date(),
          token: "old-m-token",
        })
        .executeTakeFirstOrThrow();
      const up = await migrator.migrateToLatest();
      expect(up.error).toBeUndefined();
      const links = await scratch.selectFrom("public_links").selectAll().orderBy("kind").execute();
      const sha = (s: string) => createHash("sha256").update(s).digest("hex");
      expect(links.map((l) => [l.kind, l.record_id, l.token_hash, l.token_seed])).toEqual([
        ["measurement", Number(m.insertId), sha("old-m-token"), null],
        ["storage", Number(storage.insertId), sha("old-storage-token"), null],
      ]);
      const columns = await sql<{ c: number }>`
        SELECT COUNT(*) AS c FROM information_schema.columns
        WHERE table_schema = ${name} AND column_name = 'token' AND table_name IN ('storages', 'measurements')`.execute(
        scratch,
      );
      expect(Number(columns.rows[0].c)).toBe(0);
      const down = await migrator.migrateDown();
      expect(down.error).toBeUndefined();
    } finally {
      await scratch.destroy();
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.end();
    }
  });
});

describe("the demo seed", () => {
  it("shares every demo storage and the two newest measurements of each, which open; a second run adds nothing", async () => {
    const seeded = await seedDemo(db(), fileStorage(), async () => {}, { measurements: 6 });
    expect(await seedPublicLinks(db(), seeded.organizationId)).toBe(4 + 6);
    const links = await db()
      .selectFrom("public_links")
      .selectAll()
      .where("organization_id", "=", seeded.organizationId)
      .execute();
    expect(links.filter((l) => l.kind === "storage")).toHaveLength(4);
    expect(links.filter((l) => l.kind === "measurement")).toHaveLength(6);
    const storage = (await publicLinkOf(
      db(),
      { organizationId: seeded.organizationId },
      "storage",
      links[0].record_id,
    ))!;
    const page = await get(storage.path!);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Demo Forest OÜ");
    // Its newest measurements are shared: the storage page links them.
    expect(page.text.match(/data-testid="public-link-/g)?.length).toBeGreaterThan(0);
    const m = links.find((l) => l.kind === "measurement")!;
    const measurement = (await publicLinkOf(
      db(),
      { organizationId: seeded.organizationId },
      "measurement",
      m.record_id,
    ))!;
    expect((await get(measurement.path!)).status).toBe(200);
    expect(await seedPublicLinks(db(), seeded.organizationId)).toBe(0);
  });
});
