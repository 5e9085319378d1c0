import { spawn } from "node:child_process";
import http from "node:http";
import net from "node:net";
import { describe, expect, inject, it } from "vitest";
import {
  apiToken,
  createMeasurement,
  createOrganization,
  createStorage,
  createUser,
  PASSWORD,
  webCookie,
} from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { api, baseUrl } from "#tests/helpers/http";
import { db } from "~/utils/db.server";

// README "Security": the checks in front of every request (server/), seen from outside.

async function admin(features: string[] = ["custom_fields", "timber_management"]) {
  const org = await createOrganization({ features });
  const user = await createUser(org.id, { role: "admin" });
  return { org, user, cookie: await webCookie(user.id), token: await apiToken(user.id) };
}

/** Sends `total` bytes in chunks without a Content-Length; resolves with the status (or the socket error). */
function chunkedPost(path: string, contentType: string, total: number): Promise<number | string> {
  return new Promise((resolve) => {
    const url = new URL(path, baseUrl());
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { "Content-Type": contentType },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode!);
      },
    );
    req.on("error", (error) => resolve(`error: ${error.message}`));
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}

describe("body limits by bytes read", () => {
  it("answers 413 to a 2 MB JSON body with its length declared", async () => {
    const big = { credentials: { email: "a@b.test", password: "x".repeat(2 * 1024 * 1024) } };
    const r = await api("/api/web_app/logins", { json: big });
    expect(r.status).toBe(413);
    expect(r.data.error).toBe("payload_too_large");
  });

  it("answers 413 to a chunked body without a length (login 100 MB, device upload 50 MB) and the server keeps serving", async () => {
    const login = await chunkedPost("/api/web_app/logins", "application/json", 100 * 1024 * 1024);
    const upload = await chunkedPost("/api/device/measurements", "multipart/form-data; boundary=x", 50 * 1024 * 1024);
    // The server answers as soon as the limit is passed, reads no further and closes the connection.
    expect(login).toBe(413);
    expect(upload).toBe(413);
    expect((await api("/healthcheck")).status).toBe(200);
    const memory = await fetch(`${baseUrl()}/healthcheck`);
    expect(memory.status).toBe(200);
  });
});

describe("client address", () => {
  it("a long X-Forwarded-For from an untrusted client is ignored: login works and the session keeps the socket's address", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "measurer" });
    const r = await api("/api/web_app/logins", {
      json: { credentials: { email: user.email, password: PASSWORD } },
      headers: { "X-Forwarded-For": `${"9".repeat(300)}, 203.0.113.9` },
    });
    expect(r.status).toBe(200);
    const row = await db().selectFrom("sessions").select("ip").where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.ip).toBe("127.0.0.1");
  });
});

describe("behind a trusted proxy (TRUST_PROXY=1)", () => {
  it("takes the client address from the proxy's X-Forwarded-For, and stores nothing when it is not an IP", async () => {
    const port = await new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = srv.address() as net.AddressInfo;
        srv.close(() => resolve(port));
      });
    });
    const databases = inject("databases");
    const child = spawn("node", ["server.js"], {
      env: {
        ...process.env,
        DATABASE_URL: databases.mysqlUrl,
        JOBS_DATABASE_URL: databases.jobsUrl,
        STORAGE_DIR: databases.storageDir,
        SESSION_SECRET: databases.sessionSecret,
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        APP_URL: `http://127.0.0.1:${port}`,
        TRUST_PROXY: "1",
      },
      stdio: "ignore",
    });
    try {
      const url = `http://127.0.0.1:${port}`;
      await expect
        .poll(
          () =>
            fetch(`${url}/healthcheck`).then(
              (r) => r.status,
              () => 0,
            ),
          { timeout: 20_000 },
        )
        .toBe(200);
      const org = await createOrganization();
      const user = await createUser(org.id, { role: "measurer" });
      const login = (forwarded: string) =>
        fetch(`${url}/api/web_app/logins`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Forwarded-For": forwarded },
          body: JSON.stringify({ credentials: { email: user.email, password: PASSWORD } }),
        });
      expect((await login("10.9.8.7, 203.0.113.9")).status).toBe(200);
      expect((await login(`${"9".repeat(300)}`)).status).toBe(200);
      const ips = await db().selectFrom("sessions").select("ip").where("user_id", "=", user.id).orderBy("id").execute();
      expect(ips.map((r) => r.ip)).toEqual(["203.0.113.9", null]);
    } finally {
      child.kill("SIGTERM");
      if (child.exitCode === null) await new Promise((resolve) => child.once("exit", resolve));
    }
  });
});

describe("cross-site requests", () => {
  const CROSS_ORIGIN = "Cross-origin request refused";
  const foreign = { Origin: "https://evil.example" };

  it("refuses a foreign-Origin screen action through ?_data= and a form post with 403, changing nothing", async () => {
    const s = await admin();
    const before = await snapshotTables();
    const form = {
      intent: "profile",
      name: "Hacked",
      time_zone: "UTC",
      volume_unit: "m^3",
      rounding_precision: "2",
      locale: "en",
    };
    for (const path of ["/settings/account?_data=routes%2F_app%2B%2Fsettings%2B%2Faccount", "/settings/account"]) {
      const r = await api(path, { cookie: s.cookie, form, headers: foreign });
      expect(r.status).toBe(403);
      expect(r.data.message).toBe(CROSS_ORIGIN);
    }
    const referer = await api("/settings/account", {
      cookie: s.cookie,
      form,
      headers: { Referer: "https://evil.example/page" },
    });
    expect(referer.status).toBe(403);
    expect(await snapshotTables()).toEqual(before);
  });

  it("refuses cookie-authenticated API writes sent as text/plain or forms from another origin", async () => {
    const s = await admin();
    const before = await snapshotTables();
    const body = JSON.stringify({
      custom_field: { name: "X", key: "x", source_key: "measurement", data_type: "string" },
    });
    const plain = await fetch(`${baseUrl()}/api/web_app/custom_fields`, {
      method: "POST",
      headers: { ...foreign, Cookie: s.cookie, "Content-Type": "text/plain" },
      body,
    });
    expect(plain.status).toBe(403);
    expect((await plain.json()).message).toBe(CROSS_ORIGIN);
    const wood = await api("/api/web_app/wood_types", { cookie: s.cookie, form: { name: "Oak" }, headers: foreign });
    expect(wood.status).toBe(403);
    expect(wood.data.message).toBe(CROSS_ORIGIN);
    const twoFactor = await api("/api/web_app/two_factors", { cookie: s.cookie, method: "POST", headers: foreign });
    expect(twoFactor.status).toBe(403);
    expect(twoFactor.data.message).toBe(CROSS_ORIGIN);
    expect(await snapshotTables()).toEqual(before);
  });

  it("answers Remix's own refusals (a _data id that does not match the URL, no action) as 4xx in the error shape", async () => {
    const s = await admin();
    const mismatched = await api("/settings/account?_data=routes%2Fnope", {
      cookie: s.cookie,
      form: { intent: "profile" },
      headers: { Origin: baseUrl() },
    });
    expect(mismatched.status).toBe(403);
    expect(mismatched.data.error).toBe("forbidden");
    const noAction = await api("/api/web_app/pricing", { token: s.token, json: {} });
    expect(noAction.status).toBe(405);
    expect(noAction.data.error).toBe("method_not_allowed");
  });

  it("lets the app's own origin and bearer-token calls through", async () => {
    const s = await admin();
    const own = await api("/api/web_app/wood_types", {
      cookie: s.cookie,
      json: { name: "Oak" },
      headers: { Origin: baseUrl() },
    });
    expect(own.status).toBeLessThan(400);
    const bearer = await api("/api/web_app/wood_types", {
      token: s.token,
      json: { name: "Birch" },
      headers: foreign,
    });
    expect(bearer.status).toBeLessThan(400);
  });
});

describe("headers", () => {
  it("pages carry a CSP whose nonce is on every inline script, and refuse framing", async () => {
    const r = await fetch(`${baseUrl()}/login`);
    const csp = r.headers.get("content-security-policy") ?? "";
    const nonce = csp.match(/'nonce-([^']+)'/)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(r.headers.get("x-frame-options")).toBe("DENY");
    const html = await r.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const attributes of scripts) {
      if (/\bsrc=/.test(attributes)) continue;
      expect(attributes).toContain(`nonce="${nonce}"`);
    }
    const second = await fetch(`${baseUrl()}/login`);
    expect(second.headers.get("content-security-policy")).not.toContain(nonce);
  });

  it("signed-in pages and API answers are not stored", async () => {
    const s = await admin();
    const page = await api("/settings/account", { cookie: s.cookie });
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    const answer = await api("/api/web_app/account", { token: s.token });
    expect(answer.headers.get("cache-control")).toBe("no-store");
  });
});

describe("open redirects", () => {
  const EVIL = ["/\\evil.example/x", "/\t/evil.example", "//evil.example", "/\\/evil.example"];

  it("the login GET and POST, banner dismiss, account and export form posts stay on the app", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "admin" });
    const cookie = await webCookie(user.id);
    const storage = await createStorage(org.id);
    const m = await createMeasurement(org.id, storage.id);
    for (const target of EVIL) {
      const answers = [
        await api(`/login?redirectTo=${encodeURIComponent(target)}`, { cookie }),
        await api("/login", { form: { intent: "login", email: user.email, password: PASSWORD, redirectTo: target } }),
        await api("/banners/dismiss", { cookie, form: { banner: "pending", redirectTo: target } }),
        await api("/api/web_app/account", { cookie, form: { locale: "en", redirectTo: target } }),
        await api("/api/web_app/excel_exports", {
          cookie,
          form: { report_type: "log_by_log_excel", measurement_ids: String(m.id), redirectTo: target },
        }),
      ];
      for (const r of answers) {
        expect(r.status).toBe(302);
        const location = r.headers.get("location")!;
        expect(new URL(location, baseUrl()).origin, `${target} -> ${location}`).toBe(baseUrl());
      }
    }
  });
});
