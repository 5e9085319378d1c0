import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  apiToken,
  createCustomField,
  createDevice,
  createLumberMeasurement,
  createMeasurement,
  createOrganization,
  createStorage,
  createUser,
  givePlan,
  webCookie,
} from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { baseUrl } from "#tests/helpers/http";
import { schemaPaths } from "#tests/helpers/zod-fields";
import { db } from "~/utils/db.server";

// The fuzz suite of README "Security": every URL of the app (tests/unit/route-manifest.txt, made
// from the route files, so a new route is covered without touching this file) gets generated bad
// requests: wrong types, huge and deep values, dates MariaDB cannot store, broken encodings,
// unknown keys and bad ids, mostly as a signed-in admin (sometimes a viewer, or signed out).
// Each must be answered below 500, API errors in the spec's shape ({error: CODE, ...}), and a
// refused request changes no row. Sampled with a fixed seed; set FUZZ_SEED to explore other
// samples, FUZZ_PER_ROUTE for more requests per URL.

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const PER_ROUTE = Number(process.env.FUZZ_PER_ROUTE ?? 10);

function rng(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] };
}
type Rng = ReturnType<typeof rng>;

/** The URLs of the app: the last route of each manifest line, layouts and splats left out. */
function manifestUrls() {
  const lines = fs.readFileSync(path.join(process.cwd(), "tests/unit/route-manifest.txt"), "utf8").trim().split("\n");
  const urls = new Set<string>();
  for (const line of lines) {
    const last = line
      .split(" > ")
      .pop()!
      .replace(/ \[index\]$/, "");
    if (last.endsWith("[layout]") || last.endsWith("/*")) continue;
    urls.add(last);
  }
  return [...urls].sort();
}

function deep(depth: number): unknown {
  let v: unknown = "x";
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

const BAD_VALUES: (() => unknown)[] = [
  () => null,
  () => "",
  () => "x".repeat(70_000),
  () => -1,
  () => 1.5,
  () => 1e20,
  () => -1e308,
  () => true,
  () => [],
  () => ({}),
  () => deep(60),
  () => "0000-01-01T00:00:00Z",
  () => "-000001-06-01T00:00:00Z",
  () => "+010000-01-01T00:00:00Z",
  () => "31.02.0000",
  () => "\u0000\ud800",
  () => "' OR 1=1 --",
  () => ["a", { b: null }],
  () => ({ __proto__: { admin: true }, constructor: { prototype: {} } }),
];

/** Payload paths of the app's own schemas: bodies that get past "unknown key" into the validation. */
async function knownPaths() {
  const dir = path.join(process.cwd(), "app/utils/schemas");
  const paths = new Set<string>();
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
    const mod = await import(path.join(dir, file));
    for (const value of Object.values(mod))
      if (value instanceof z.ZodType) for (const p of schemaPaths(value)) paths.add(p);
  }
  return [...paths].filter((p) => p && !p.includes("*")).sort();
}

function setPath(target: Record<string, unknown>, dotted: string, value: unknown) {
  const parts = dotted.split(".").filter((p) => p !== "[]");
  let node = target;
  for (const part of parts.slice(0, -1)) {
    if (typeof node[part] !== "object" || node[part] === null) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts[parts.length - 1]] = value;
}

type Body = { type?: string; body?: string | Uint8Array; label: string };

function jsonBody(r: Rng, paths: string[]): Body {
  const shape = r.next();
  if (shape < 0.15)
    return { type: "application/json", body: JSON.stringify(r.pick(BAD_VALUES)()), label: "json scalar" };
  const payload: Record<string, unknown> = {};
  const count = 1 + Math.floor(r.next() * 6);
  for (let i = 0; i < count; i++) setPath(payload, r.pick(paths), r.pick(BAD_VALUES)());
  if (r.next() < 0.3) payload[`unknown_${Math.floor(r.next() * 100)}`] = r.pick(BAD_VALUES)();
  return { type: "application/json", body: JSON.stringify(payload), label: "json fields" };
}

const INTENTS = [
  "save",
  "update",
  "delete",
  "rename",
  "profile",
  "password",
  "login",
  "otp",
  "create",
  "add_role",
  "remove_role",
  "enable_2fa",
  "confirm_2fa",
  "disable_2fa",
  "upload",
  "restore",
  "x",
];

function formBody(r: Rng, paths: string[]): Body {
  const form = new URLSearchParams();
  form.set("intent", r.pick(INTENTS));
  const count = 1 + Math.floor(r.next() * 6);
  for (let i = 0; i < count; i++) {
    const key = r.pick(paths).split(".").pop()!;
    const value = r.pick(BAD_VALUES)();
    form.append(key, typeof value === "string" ? value : (JSON.stringify(value) ?? ""));
  }
  return { type: "application/x-www-form-urlencoded", body: form.toString(), label: "form fields" };
}

const BROKEN: Body[] = [
  { type: "application/json", body: "{", label: "truncated json" },
  {
    type: "application/json",
    body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
    label: "invalid utf-8",
  },
  { type: "application/json", body: "null", label: "json null" },
  { type: "application/json", body: "[".repeat(5000) + "]".repeat(5000), label: "json nested 5000" },
  { type: "multipart/form-data", body: "a=1", label: "multipart without boundary" },
  { type: "multipart/form-data; boundary=xyz", body: "--xyz\r\nbroken\r\n\r\n1\r\n--xyz--", label: "broken multipart" },
  {
    type: "multipart/form-data; boundary=xyz",
    body: '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1',
    label: "unterminated multipart",
  },
  { type: "application/x-www-form-urlencoded", body: "%%%=%zz&intent=%ff", label: "bad percent encoding" },
  { type: "text/plain", body: '{"a":1}', label: "text/plain" },
  { type: "application/xml", body: "<a/>", label: "xml" },
  { label: "no body" },
];

const BAD_IDS = ["0", "-1", "abc", "1.5", "1e20", "99999999999999999999", "%00", "..%2f..%2fetc"];

interface World {
  ids: Record<string, number>;
  deviceToken: string;
  adminId: number;
  viewerId: number;
}

/** A real id for the URL's resource, or a bad one. DELETE only ever gets bad ids (it needs no body). */
function fillUrl(r: Rng, url: string, world: World, method: string) {
  return url.replace(/:([a-z_]+)/g, (_m, name: string) => {
    if (method === "DELETE" || r.next() < 0.4) return r.pick(BAD_IDS);
    if (name === "token") return "A".repeat(43);
    if (name === "lng") return r.pick(["en", "xx", "../../etc"]);
    if (name === "kind") return r.pick(["species", "qualities", "nope"]);
    if (name === "folder") return r.pick(["measurements", "x"]);
    if (name === "variant") return r.pick(["thumbnail", "original", "x"]);
    if (name === "package_id") return r.pick(["pro_subscription", "x"]);
    const resource = Object.keys(world.ids).find((k) => url.includes(k));
    return String(resource ? world.ids[resource] : world.ids.measurements);
  });
}

const GET_QUERIES = [
  "?page=1.5",
  "?page=1e20&open=1e20",
  "?page=-3&storage_id=abc",
  "?redirectTo=%2F%5Cevil.example",
  "?q[f][taken_at_start]=0000-01-01",
  "?cycle=%00&pending=1e20&confirm=-1",
];

/** Tables a route changes while refusing a request, and why. */
const MAY_CHANGE: Record<string, { tables: string[]; why: string }> = {
  "/logout": { tables: ["sessions"], why: "signing out needs no body: a refused one still signs out" },
  "/api/web_app/logout": { tables: ["sessions"], why: "signing out needs no body" },
  "/api/web_app/two_factors": {
    tables: ["users"],
    why: "a wrong password or code counts towards the lockout, so a borrowed session cannot guess the password",
  },
  "/settings/account": { tables: ["users"], why: "the same count for the screen's two-factor proof" },
};

describe("bad input fuzz suite", () => {
  let world: World;
  let paths: string[];
  const problems: string[] = [];
  const tally = { requests: 0, byStatus: {} as Record<string, number> };

  // Inside the test: the setup file empties the tables before each test, after any beforeAll.
  async function makeWorld() {
    const org = await createOrganization({
      features: [
        "timber_management",
        "diameter_profiles",
        "minmax_assortments",
        "custom_fields",
        "reports",
        "storage_access_management",
        "inventories",
        "qr_code",
      ],
    });
    await givePlan(org.id);
    const admin = await createUser(org.id, { role: "admin" });
    const member = await createUser(org.id, { role: "measurer" });
    const viewer = await createUser(org.id, { role: "viewer" });
    const storage = await createStorage(org.id);
    const measurement = await createMeasurement(org.id, storage.id);
    const lumber = await createLumberMeasurement(org.id, storage.id, { photo: false });
    const field = await createCustomField(org.id, { key: "block" });
    const device = await createDevice(org.id);
    const role = await db().selectFrom("roles").select("id").where("user_id", "=", member.id).executeTakeFirstOrThrow();
    world = {
      adminId: admin.id,
      viewerId: viewer.id,
      deviceToken: device.token,
      ids: {
        custom_fields: field.id,
        devices: device.id,
        users: member.id,
        roles: Number(role.id),
        storages: storage.id,
        organizations: org.id,
        lumber: lumber.id,
        measurements: measurement.id,
        measurement: measurement.id,
      },
    };
    paths = await knownPaths();
  }

  async function send(pattern: string, url: string, method: string, body: Body | null, auth: Record<string, string>) {
    const before = method === "GET" ? null : await snapshotTables();
    const headers: Record<string, string> = { ...auth };
    if (body?.type) headers["Content-Type"] = body.type;
    const response = await fetch(`${baseUrl()}${url}`, {
      method,
      headers,
      body: body?.body as BodyInit | undefined,
      redirect: "manual",
    });
    const text = await response.text();
    tally.requests++;
    const bucket = `${Math.floor(response.status / 100)}xx`;
    tally.byStatus[bucket] = (tally.byStatus[bucket] ?? 0) + 1;
    const what = `${method} ${url} [${body?.label ?? "query"}]`;
    if (response.status >= 500) problems.push(`${what}: ${response.status} ${text.slice(0, 200)}`);
    // A refused request changes nothing. (A sample that happens to be valid may change rows.)
    if (before && response.status >= 400) {
      const after = await snapshotTables();
      const allowed = MAY_CHANGE[pattern]?.tables ?? [];
      const changed = Object.keys(after).filter((t) => after[t] !== before[t] && !allowed.includes(t));
      if (changed.length) problems.push(`${what}: ${response.status} but changed ${changed.join(", ")}`);
    }
    const json = (response.headers.get("content-type") ?? "").includes("application/json");
    if (url.startsWith("/api/") && response.status >= 400 && response.status < 500 && json) {
      let data: unknown = null;
      try {
        data = JSON.parse(text);
      } catch {
        problems.push(`${what}: ${response.status} with a body that is not JSON`);
      }
      const error = (data as { error?: unknown } | null)?.error;
      if (typeof error !== "string")
        problems.push(`${what}: ${response.status} without {error}: ${text.slice(0, 120)}`);
    }
  }

  it(
    "answers every sampled bad request below 500, in the error shape, changing nothing",
    { timeout: 240_000 },
    async () => {
      await makeWorld();
      const r = rng(SEED);
      const urls = manifestUrls();
      expect(urls.length).toBeGreaterThan(100);
      for (const url of urls) {
        // A fresh session per URL: a route that signs out must not blind the rest of the run.
        // Mostly an admin (who gets furthest into the actions), sometimes a viewer or nobody.
        const who = r.next();
        const userId = who < 0.1 ? world.viewerId : world.adminId;
        const cookie = await webCookie(userId);
        const token = await apiToken(userId);
        const auth: Record<string, string> =
          who > 0.92
            ? {}
            : url.startsWith("/api/device")
              ? { Authorization: `Bearer ${world.deviceToken}` }
              : url.startsWith("/api/") && r.next() < 0.5
                ? { Authorization: `Bearer ${token}` }
                : { Cookie: cookie };
        await send(url, `${fillUrl(r, url, world, "GET")}${r.pick(GET_QUERIES)}`, "GET", null, auth);
        for (let i = 0; i < PER_ROUTE; i++) {
          const method = url.startsWith("/api/web_app") ? r.pick(["POST", "PATCH", "PUT", "DELETE"]) : "POST";
          const roll = r.next();
          const body = roll < 0.35 ? r.pick(BROKEN) : roll < 0.7 ? jsonBody(r, paths) : formBody(r, paths);
          await send(url, fillUrl(r, url, world, method), method, body, auth);
        }
      }
      console.log(`bad-input: ${tally.requests} requests, ${JSON.stringify(tally.byStatus)}`);
      expect(problems).toEqual([]);
    },
  );

  // The cases of the attack report (issue 12, finding 9), each a 5xx before.
  it("answers the reported malformed payloads with a 4xx and changes nothing", async () => {
    const org = await createOrganization({ features: ["timber_management", "custom_fields"] });
    const admin = await createUser(org.id, { role: "admin" });
    const storage = await createStorage(org.id);
    const cookie = await webCookie(admin.id);
    const token = await apiToken(admin.id);
    const woodType = await db().selectFrom("wood_types").select("id").executeTakeFirstOrThrow();
    const call = (url: string, init: { method?: string; type?: string; body?: string; auth?: "cookie" | "token" }) =>
      fetch(`${baseUrl()}${url}`, {
        method: init.method ?? "POST",
        headers: {
          ...(init.type ? { "Content-Type": init.type } : {}),
          ...(init.auth === "token" ? { Authorization: `Bearer ${token}` } : { Cookie: cookie }),
        },
        body: init.body,
        redirect: "manual",
      });
    const json = (value: unknown) => ({
      type: "application/json",
      body: JSON.stringify(value),
      auth: "token" as const,
    });
    const before = await snapshotTables();
    const cases: [string, Response][] = [
      [
        "form without boundary to an API body reader",
        await call("/api/web_app/wood_types", { type: "multipart/form-data", body: "name=x" }),
      ],
      [
        "broken multipart to a screen",
        await call("/settings/account", { type: "multipart/form-data; boundary=x", body: "--x\r\nbroken" }),
      ],
      [
        "JSON to a screen action",
        await call("/settings/organization", { type: "application/json", body: '{"intent":"save"}' }),
      ],
      ["null body to an export call", await call("/api/web_app/excel_exports", json(null))],
      ["null body to a PDF export call", await call("/api/web_app/pdf_exports", json(null))],
      [
        "year 0 taken_at",
        await call(
          "/api/web_app/manual_measurements",
          json({
            manual_measurement: {
              taken_at: "0000-01-01T00:00:00Z",
              measurement_type_id: 0,
              volume: 1,
              storage_id: storage.id,
            },
          }),
        ),
      ],
      [
        "year 10000 taken_at",
        await call(
          "/api/web_app/manual_measurements",
          json({
            manual_measurement: {
              taken_at: "+010000-01-01T00:00:00Z",
              measurement_type_id: 0,
              volume: 1,
              storage_id: storage.id,
            },
          }),
        ),
      ],
      [
        "postal code longer than its column",
        await call(`/api/web_app/organizations/${org.id}`, {
          ...json({ organization: { postal_code: "1".repeat(40) } }),
          method: "PATCH",
        }),
      ],
      [
        "organisation phone longer than its column",
        await call(`/api/web_app/organizations/${org.id}`, {
          ...json({ organization: { phone: "1".repeat(100) } }),
          method: "PATCH",
        }),
      ],
      [
        "custom-field JSON deeper than MariaDB accepts",
        await call(
          "/api/web_app/assortments",
          json({ wood_characteristic: { name: "Deep", wood_type_id: woodType.id, custom_fields: { a: deep(40) } } }),
        ),
      ],
      ["a page of 1.5", await call(`/measurements/timber?open=${storage.id}&page=1.5`, { method: "GET" })],
      ["a page of 1e20", await call(`/measurements/timber?open=${storage.id}&page=1e20`, { method: "GET" })],
    ];
    for (const [what, response] of cases) {
      expect(response.status, what).toBeLessThan(500);
      if (response.status >= 400 && (response.headers.get("content-type") ?? "").includes("json"))
        expect(typeof ((await response.json()) as { error?: unknown }).error, what).toBe("string");
    }
    for (const [what, response] of cases.slice(0, -2)) expect(response.status, what).toBeGreaterThanOrEqual(400);
    expect(await snapshotTables()).toEqual(before);
  });
});
