import { setupServer } from "msw/node";
import { afterEach, describe, expect, it } from "vitest";
import { apiToken, createOrganization, createUser, webCookie } from "#tests/factories";
import { api, baseUrl } from "#tests/helpers/http";
import { ablyHandlers, type AblyPublished } from "#tests/mocks/ably";
import { closeRealtime, createAblyTokenRequest, publish } from "~/services/realtime.server";
import { resetEnv } from "~/utils/env.server";

/** Reads Server-Sent Events from the running app until `count` events named `event` arrived. */
async function readEvents(path: string, cookie: string, event: string, count: number, afterOpen: () => Promise<void>) {
  const controller = new AbortController();
  const res = await fetch(`${baseUrl()}${path}`, { headers: { Cookie: cookie }, signal: controller.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const found: unknown[] = [];
  let opened = false;
  const timer = setTimeout(() => controller.abort(), 10_000);
  try {
    while (found.length < count) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let idx: number;
      while ((idx = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, idx);
        buffer = buffer.slice(idx + 2);
        const name = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (name === "ready" && !opened) {
          opened = true;
          await afterOpen();
        } else if (name === event && data) found.push(JSON.parse(data));
      }
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return found;
}

describe("built-in realtime (Server-Sent Events over PostgreSQL NOTIFY)", () => {
  it("delivers an event published in another process to the organisation's subscribers only", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "viewer" });
    const cookie = await webCookie(user.id);
    const events = await readEvents(
      `/realtime?channel=organization:${org.id}`,
      cookie,
      "excel-export-created",
      1,
      async () => {
        await publish(`organization:${org.id + 1000}`, "excel-export-created", { id: -1 });
        await publish(`organization:${org.id}`, "excel-export-created", { id: 42 });
      },
    );
    expect(events).toEqual([{ id: 42 }]);
  });

  it("refuses channels of other users and organisations with 404", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id);
    const token = await apiToken(user.id);
    expect((await api(`/realtime?channel=organization:${org.id + 1}`, { token })).status).toBe(404);
    expect((await api(`/realtime?channel=user:${user.id + 1}`, { token })).status).toBe(404);
    expect((await api(`/realtime?channel=organization:${org.id}`)).status).toBe(401);
  });
});

describe("Ably adapter", () => {
  const published: AblyPublished[] = [];
  const server = setupServer(...ablyHandlers(published));

  afterEach(async () => {
    server.close();
    delete process.env.ABLY_API_KEY;
    resetEnv();
    await closeRealtime();
  });

  it("publishes over Ably's REST API when ABLY_API_KEY is set", async () => {
    server.listen({ onUnhandledRequest: "error" });
    process.env.ABLY_API_KEY = "appid.keyid:secretvalue";
    resetEnv();
    await publish("user:7", "pdf-export-created", { id: 9 });
    expect(published).toHaveLength(1);
    expect(published[0].channel).toBe("user:7");
    const body = published[0].body as { name: string; data: string }[] | { name: string; data: string };
    const message = Array.isArray(body) ? body[0] : body;
    expect(message.name).toBe("pdf-export-created");
    expect(JSON.parse(message.data)).toEqual({ id: 9 });
    expect(published[0].authorization).toBe(`Basic ${Buffer.from("appid.keyid:secretvalue").toString("base64")}`);
  });

  it("signs token requests offline, limited to the user's channels", async () => {
    process.env.ABLY_API_KEY = "appid.keyid:secretvalue";
    resetEnv();
    const request = await createAblyTokenRequest("user-5", ["user:5", "organization:3"]);
    expect(request.keyName).toBe("appid.keyid");
    expect(JSON.parse(request.capability)).toEqual({ "user:5": ["subscribe"], "organization:3": ["subscribe"] });
    expect(request.mac).toBeTruthy();
  });
});
