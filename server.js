// The web process: Express serving static assets and the Remix app.
import crypto from "node:crypto";
import fs from "node:fs";
import { createRequestHandler } from "@remix-run/express";
import { broadcastDevReady, installGlobals } from "@remix-run/node";
import compression from "compression";
import express from "express";

installGlobals();
// Settings from .env when present (the demo command writes one); real environment variables win.
if (fs.existsSync(".env")) process.loadEnvFile(".env");

const BUILD_PATH = "./build/index.js";
const isDev = process.env.NODE_ENV !== "production" && process.env.NODE_ENV !== "test";
let build = await import(BUILD_PATH);

const app = express();
app.disable("x-powered-by");
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
  isDev
    ? async (req, res, next) => {
        build = await import(`${BUILD_PATH}?t=${Date.now()}`);
        return createRequestHandler({ build, mode: "development" })(req, res, next);
      }
    : createRequestHandler({ build, mode: build.mode }),
);

const port = Number(process.env.PORT || 3000);
const host = process.env.HOST || "0.0.0.0";
app.listen(port, host, () => {
  console.log(`web: listening on http://localhost:${port}`);
  if (isDev) broadcastDevReady(build);
});
