// The web process: Express serving static assets and the Remix app behind the request checks
// of server/ (bundled into build/web-server.js by `npm run build`).
import crypto from "node:crypto";
import fs from "node:fs";
import { broadcastDevReady, installGlobals } from "@remix-run/node";
import compression from "compression";
import express from "express";

installGlobals();
// Settings from .env when present (the demo command writes one); real environment variables win.
if (fs.existsSync(".env")) process.loadEnvFile(".env");

const BUILD_PATH = "./build/index.js";
const isDev = process.env.NODE_ENV !== "production" && process.env.NODE_ENV !== "test";
const { answerUnreadableForms, createSecureRequestHandler, env, trustProxySetting } =
  await import("./build/web-server.js");
answerUnreadableForms();
const settings = env();
let build = await import(BUILD_PATH);

const app = express();
app.disable("x-powered-by");
// Who the client is (req.ip, req.protocol) comes from X-Forwarded-* only behind a trusted proxy.
app.set("trust proxy", trustProxySetting(settings.TRUST_PROXY));
app.use((req, res, next) => {
  // Every request gets an id that error logs carry.
  const id = req.get("x-request-id") || crypto.randomUUID();
  req.headers["x-request-id"] = id;
  res.set("X-Request-Id", id);
  next();
});
// Server-Sent Events must not be buffered by compression.
app.use(compression({ filter: (req, res) => req.path !== "/realtime" && compression.filter(req, res) }));
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
app.listen(port, host, () => {
  console.log(`web: listening on http://localhost:${port}`);
  if (isDev) broadcastDevReady(build);
});
