// The web process: Express serving static assets and the Remix app behind the request checks
// of server/ (bundled into build/web-server.js by `npm run build`).
import fs from "node:fs";
import { broadcastDevReady, installGlobals } from "@remix-run/node";
import compression from "compression";
import express from "express";

installGlobals();
// Settings from .env when present (the demo command writes one); real environment variables win.
if (fs.existsSync(".env")) process.loadEnvFile(".env");

const BUILD_PATH = "./build/index.js";
const isDev = process.env.NODE_ENV !== "production" && process.env.NODE_ENV !== "test";
const {
  answerUnreadableForms,
  createSecureRequestHandler,
  env,
  logLine,
  observeRequests,
  setDraining,
  trustProxySetting,
} = await import("./build/web-server.js");
answerUnreadableForms();
const settings = env();
let build = await import(BUILD_PATH);

const app = express();
app.disable("x-powered-by");
// Who the client is (req.ip, req.protocol) comes from X-Forwarded-* only behind a trusted proxy.
app.set("trust proxy", trustProxySetting(settings.TRUST_PROXY));
// Every request gets an id (X-Request-Id) that its log line, error logs and error answers carry,
// one JSON log line and a duration in the /metrics histogram (README: Operations).
app.use(observeRequests({ log: settings.REQUEST_LOG === "json" }));
// Server-Sent-Event connections, ended when the process stops (browsers reconnect elsewhere).
const streams = new Set();
app.use("/realtime", (req, res, next) => {
  streams.add(res);
  res.on("close", () => streams.delete(res));
  next();
});
// Server-Sent Events must not be buffered by compression. A truck's checkpoint answers are a few
// bytes, streamed without a length (so the 1 kB threshold cannot skip them), at up to 100 a
// second: gzip cost the server 12% of their CPU for nothing (decision 017, "Checkpoint ingest").
const NOT_COMPRESSED = /^\/api\/device\/truck_routes\/\d+\/checkpoints$/;
app.use(
  compression({
    filter: (req, res) => req.path !== "/realtime" && !NOT_COMPRESSED.test(req.path) && compression.filter(req, res),
  }),
);
app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
app.use(express.static("public", { maxAge: "1h" }));

app.all(
  "*",
  createSecureRequestHandler({
    getBuild: isDev ? async () => (build = await import(`${BUILD_PATH}?t=${Date.now()}`)) : () => build,
    mode: isDev ? "development" : build.mode,
    appOrigin: new URL(settings.APP_URL).origin,
    headers: {
      https: settings.APP_URL.startsWith("https://"),
      mapTileUrl: settings.MAP_TILE_URL,
      ably: !!settings.ABLY_API_KEY,
      dev: isDev,
    },
  }),
);

const port = Number(process.env.PORT || 3000);
const host = process.env.HOST || "0.0.0.0";
const server = app.listen(port, host, () => {
  console.log(`web: listening on http://localhost:${port}`);
  if (isDev) broadcastDevReady(build);
});

// Graceful shutdown (SIGTERM from an orchestrator, SIGINT from a terminal): stop accepting
// connections, let requests in flight finish for up to SHUTDOWN_TIMEOUT_SECONDS, end the
// realtime streams, then close the database pools and exit.
let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  setDraining(true);
  const started = Date.now();
  logLine({ level: "info", msg: "shutdown", signal });
  for (const res of streams) res.destroy();
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections();
  // Keep-alive connections that go idle after their last answer are closed as they do.
  const idle = setInterval(() => server.closeIdleConnections(), 100);
  const timer = setTimeout(() => {
    logLine({ level: "warn", msg: "shutdown timeout: closing connections with requests in flight" });
    server.closeAllConnections();
  }, settings.SHUTDOWN_TIMEOUT_SECONDS * 1000);
  await closed;
  clearInterval(idle);
  clearTimeout(timer);
  try {
    await build.entry.module.closeResources?.();
  } catch (error) {
    console.error("shutdown: closing pools failed", error);
  }
  logLine({ level: "info", msg: "stopped", durationMs: Date.now() - started });
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
