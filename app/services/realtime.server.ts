import Ably from "ably";
import pg from "pg";
import { env } from "~/utils/env.server";

// One publish function, two adapters. With ABLY_API_KEY the server publishes over Ably's REST
// API; without it, events go through PostgreSQL NOTIFY, and each web process LISTENs and feeds
// its Server-Sent-Event subscribers. Channel names: user:{id}, organization:{id}, report:{id}.

export type RealtimeMessage = { channel: string; event: string; data: unknown };
const PG_CHANNEL = "realtime_events";
// NOTIFY payloads are limited to 8000 bytes; events carry ids and small summaries only.
const MAX_PAYLOAD = 7900;

let ablyRest: Ably.Rest | undefined;
let notifyPool: pg.Pool | undefined;

export async function publish(channel: string, event: string, data: unknown) {
  const key = env().ABLY_API_KEY;
  if (key) {
    ablyRest ??= new Ably.Rest({ key, useBinaryProtocol: false });
    await ablyRest.channels.get(channel).publish(event, data);
    return;
  }
  const payload = JSON.stringify({ channel, event, data } satisfies RealtimeMessage);
  if (Buffer.byteLength(payload) > MAX_PAYLOAD) throw new Error(`realtime payload too large for ${event}`);
  notifyPool ??= new pg.Pool({ connectionString: env().JOBS_DATABASE_URL, max: 2 });
  await notifyPool.query("SELECT pg_notify($1, $2)", [PG_CHANNEL, payload]);
}

/** Signs an Ably token request for a browser, limited to the channels it may read. */
export async function createAblyTokenRequest(clientId: string, channels: string[]) {
  const key = env().ABLY_API_KEY;
  if (!key) throw new Error("Ably is not configured");
  ablyRest ??= new Ably.Rest({ key, useBinaryProtocol: false });
  const capability = Object.fromEntries(channels.map((c) => [c, ["subscribe"]]));
  return ablyRest.auth.createTokenRequest({ clientId, capability: JSON.stringify(capability) });
}

// ---- the built-in adapter's listening side (web process only) ----

type Listener = (message: RealtimeMessage) => void;
const listeners = new Map<string, Set<Listener>>();
let listening: Promise<pg.Client> | undefined;

async function startListening() {
  const client = new pg.Client({ connectionString: env().JOBS_DATABASE_URL });
  client.on("notification", (n) => {
    if (n.channel !== PG_CHANNEL || !n.payload) return;
    let message: RealtimeMessage;
    try {
      message = JSON.parse(n.payload);
    } catch {
      return;
    }
    for (const l of listeners.get(message.channel) ?? []) l(message);
  });
  client.on("error", (error) => {
    console.error("realtime listener lost its connection; reconnecting", error.message);
    listening = undefined;
    client.end().catch(() => {});
    if (listeners.size > 0) setTimeout(() => void ensureListening(), 1000);
  });
  await client.connect();
  await client.query(`LISTEN ${PG_CHANNEL}`);
  return client;
}

function ensureListening() {
  listening ??= startListening().catch((error) => {
    listening = undefined;
    throw error;
  });
  return listening;
}

export async function subscribe(channel: string, listener: Listener): Promise<() => void> {
  await ensureListening();
  let set = listeners.get(channel);
  if (!set) listeners.set(channel, (set = new Set()));
  set.add(listener);
  return () => {
    set!.delete(listener);
    if (set!.size === 0) listeners.delete(channel);
  };
}

export async function closeRealtime() {
  const client = await listening?.catch(() => undefined);
  listening = undefined;
  await client?.end();
  await notifyPool?.end();
  notifyPool = undefined;
  ablyRest = undefined;
}

/** For /metrics: the publishing pool's connections and this process's SSE subscribers. */
export function realtimeStats() {
  let subscribers = 0;
  for (const set of listeners.values()) subscribers += set.size;
  return {
    total: notifyPool?.totalCount ?? 0,
    idle: notifyPool?.idleCount ?? 0,
    waiting: notifyPool?.waitingCount ?? 0,
    subscribers,
  };
}

/** Channels a signed-in user may read: their own, and their current organisation's. */
export function allowedChannels(ctx: { userId: number; organizationId: number }) {
  return [`user:${ctx.userId}`, `organization:${ctx.organizationId}`];
}
