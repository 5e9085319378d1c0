import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiToken, createOrganization, createUser } from "#tests/factories";
import { databases } from "#tests/helpers/db";
import { waitFor } from "#tests/helpers/wait";
import { startWeb, type WebProcess } from "#tests/helpers/web-process";

// What an operator sees of a web process: health for the load balancer, one JSON log line per
// request, the request id in error answers, and Prometheus metrics behind METRICS_TOKEN.

const METRICS_TOKEN = "ops-test-metrics-token-0123456789";
let web: WebProcess;

beforeAll(async () => {
  web = await startWeb({
    DATABASE_URL: databases().mysqlUrl,
    JOBS_DATABASE_URL: databases().jobsUrl,
    STORAGE_DIR: databases().storageDir,
    APP_URL: "http://127.0.0.1",
    METRICS_TOKEN,
  });
});
afterAll(async () => {
  await web?.kill("SIGTERM");
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${web.baseUrl}${path}`, { headers });

describe("health", () => {
  it("/healthcheck/live answers without touching a database; /ready and /healthcheck check both", async () => {
    const live = await get("/healthcheck/live");
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "ok" });
    const ready = await get("/healthcheck/ready");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ok", mysql: { ok: true }, postgres: { ok: true } });
    const old = await get("/healthcheck");
    expect(old.status).toBe(200);
    expect(await old.json()).toMatchObject({ status: "ok", mysql: { ok: true }, postgres: { ok: true } });
  });
});

describe("request ids and log lines", () => {
  it("an API error answer carries its request id in X-Request-Id", async () => {
    const answer = await get("/api/web_app/account", { Authorization: "Bearer not-a-real-token-0123456789" });
    expect(answer.status).toBe(401);
    const id = answer.headers.get("X-Request-Id")!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await answer.json()).toMatchObject({ error: "invalid_token" });
  });

  it("keeps a proxy's well-formed request id and replaces a malformed one", async () => {
    const kept = await get("/healthcheck/live", { "X-Request-Id": "lb-1234567890abcdef" });
    expect(kept.headers.get("X-Request-Id")).toBe("lb-1234567890abcdef");
    const replaced = await get("/healthcheck/live", { "X-Request-Id": "<script>" });
    expect(replaced.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("logs one JSON line per request: route id, status, duration, organisation; never the token", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id);
    const token = await apiToken(user.id);
    const answer = await get("/api/web_app/account", { Authorization: `Bearer ${token}` });
    expect(answer.status).toBe(200);
    const id = answer.headers.get("X-Request-Id")!;
    const line = await waitFor(async () => web.lines().find((l) => l.requestId === id), { what: "the log line" });
    expect(line).toMatchObject({ msg: "request", method: "GET", status: 200, organizationId: org.id });
    expect(typeof line.route).toBe("string");
    expect(line.route).toMatch(/^routes\//);
    expect(typeof line.durationMs).toBe("number");
    expect(web.logs.join("")).not.toContain(token);
    expect(web.lines().filter((l) => l.requestId === id)).toHaveLength(1);
  });
});

describe("/metrics", () => {
  it("is not there without the token, or with another", async () => {
    expect((await get("/metrics")).status).toBe(404);
    expect((await get("/metrics", { Authorization: "Bearer wrong-token-0123456789abcdef" })).status).toBe(404);
  });

  it("answers the Prometheus series: request durations per route, queue depth, pools", async () => {
    await get("/healthcheck/ready");
    const answer = await get("/metrics", { Authorization: `Bearer ${METRICS_TOKEN}` });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toMatch(/^text\/plain/);
    const text = await answer.text();
    expect(text).toMatch(
      /^http_request_duration_seconds_count\{route="routes\/healthcheck_\.ready",method="GET",status="200"\} [1-9]/m,
    );
    expect(text).toContain("# TYPE jobs_queue_depth gauge");
    expect(text).toMatch(/^db_pool_connections\{pool="mysql",state="open"\} [1-9]/m);
    expect(text).toMatch(/^realtime_subscribers 0/m);
    expect(text).toContain("process_cpu_seconds_total");
  });
});
