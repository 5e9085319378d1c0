import fs from "node:fs";
import { Readable } from "node:stream";
import {
  createReadableStreamFromReadable,
  createRequestHandler,
  writeReadableStreamToWritable,
  type ServerBuild,
} from "@remix-run/node";
import { matchRoutes } from "@remix-run/react";
import { requestStorage } from "~/utils/request-context.server";
import { BodyTooLargeError, readLimitedBody, type ReadBody } from "./body-limit";
import { validIp } from "./client-ip";
import { isCrossSiteWrite } from "./origin-check";
import { applySecurityHeaders, newNonce, type HeaderSettings } from "./security-headers";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";

// Serves the Remix app as @remix-run/express does, with the request checks of README "Security"
// in front: the Origin check (403), the body limit by bytes read (413), the client address from
// `trust proxy`, and the security headers on every answer.

export interface HandlerOptions {
  getBuild: () => Promise<ServerBuild> | ServerBuild;
  mode: string;
  appOrigin: string;
  headers: HeaderSettings;
}

function refuse(res: ExpressResponse, status: number, error: string, message: string) {
  res.status(status).set("Cache-Control", "no-store").json({ error, message });
}

// ---- which route answers (for the request log and metrics) ----

type RouteNode = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children: RouteNode[] };
const routeTrees = new WeakMap<ServerBuild, RouteNode[]>();
function routeTree(build: ServerBuild) {
  let tree = routeTrees.get(build);
  if (!tree) {
    const byParent = new Map<string | undefined, RouteNode[]>();
    for (const route of Object.values(build.routes)) {
      const node: RouteNode = { id: route.id, path: route.path, index: route.index, children: [] };
      const siblings = byParent.get(route.parentId) ?? [];
      siblings.push(node);
      byParent.set(route.parentId, siblings);
    }
    const attach = (nodes: RouteNode[]) => {
      for (const node of nodes) attach((node.children = byParent.get(node.id) ?? []));
      return nodes;
    };
    tree = attach(byParent.get(undefined) ?? []);
    routeTrees.set(build, tree);
  }
  return tree;
}

/** The id of the route that answers a path (a data request names its own in `_data`). */
export function routeIdOf(build: ServerBuild, url: URL) {
  const data = url.searchParams.get("_data");
  if (data && data in build.routes) return data;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the route objects are matchRoutes' input
  const matches = matchRoutes(routeTree(build) as any, url.pathname);
  return (matches?.[matches.length - 1]?.route as RouteNode | undefined)?.id ?? "unmatched";
}

/**
 * Server errors in JSON (5xx) carry the request id in the body too, so support can find the
 * request's log line from what a client shows. 4xx bodies stay as they are (a foreign record's
 * answer must equal a missing one's byte for byte); every answer has the X-Request-Id header.
 */
async function withRequestId(response: Response, requestId: string | undefined): Promise<Response> {
  if (!requestId || response.status < 500) return response;
  if (!/^application\/json/i.test(response.headers.get("Content-Type") ?? "")) return response;
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  const out = body && typeof body === "object" && !Array.isArray(body) ? JSON.stringify({ ...body, requestId }) : text;
  return new Response(out, { status: response.status, statusText: response.statusText, headers });
}

// A refused body is read on and thrown away (so the client gets to read the answer), but only
// so much and so long: then the connection is dropped.
const DISCARD_BYTES = 64 * 1024 * 1024;
const DISCARD_MS = 10_000;

function discardRest(req: ExpressRequest) {
  let discarded = 0;
  const drop = () => req.socket.destroy();
  const timer = setTimeout(drop, DISCARD_MS).unref();
  req.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_BYTES) {
      clearTimeout(timer);
      drop();
    }
  });
  req.on("end", () => clearTimeout(timer));
  req.on("close", () => clearTimeout(timer));
  req.resume();
}

function bodyStream(body: ReadBody) {
  if (body.kind === "memory") return body.data.length ? Readable.from([body.data]) : null;
  if (body.kind === "file") return fs.createReadStream(body.path);
  return null;
}

function remixHeaders(incoming: ExpressRequest["headers"]) {
  const headers = new Headers();
  for (const [key, values] of Object.entries(incoming)) {
    if (Array.isArray(values)) for (const value of values) headers.append(key, value);
    else if (values) headers.set(key, values);
  }
  return headers;
}

async function sendResponse(res: ExpressResponse, response: Response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}

function remixRequest(req: ExpressRequest, res: ExpressResponse, body: ReadBody) {
  // As @remix-run/express builds it: req.protocol and req.hostname respect `trust proxy`; the
  // port comes from the header the hostname came from (X-Forwarded-Host behind a trusted proxy).
  const host = req.get("host") ?? "";
  const source = host.split(":")[0] === req.hostname ? host : (req.get("x-forwarded-host") ?? "");
  const port = source.split(",")[0].trim().split(":")[1];
  const url = new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`);
  let controller: AbortController | null = new AbortController();
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  const init: RequestInit & { duplex?: "half" } = {
    method: req.method,
    headers: remixHeaders(req.headers),
    signal: controller.signal,
  };
  const stream = bodyStream(body);
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = stream ? createReadableStreamFromReadable(stream) : "";
    if (stream) init.duplex = "half";
  }
  return new Request(url.href, init);
}

const REMIX_ERROR_CODES: Record<number, string> = {
  400: "bad_request",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
};

/**
 * Remix's own refusals (a POST to a route without an action, a `_data` id that does not match
 * the URL) come as {"message":"Unexpected Server Error"}: they get the API's error shape.
 */
function withErrorShape(response: Response): Response {
  if (response.headers.get("X-Remix-Error") !== "yes" || response.status >= 500) return response;
  const code = REMIX_ERROR_CODES[response.status] ?? "bad_request";
  const headers = new Headers(response.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.delete("Content-Length");
  return new Response(JSON.stringify({ error: code, message: code.replace(/_/g, " ") }), {
    status: response.status,
    headers,
  });
}

const handlers = new WeakMap<ServerBuild, ReturnType<typeof createRequestHandler>>();
function handlerOf(build: ServerBuild, mode: string) {
  let handler = handlers.get(build);
  if (!handler) handlers.set(build, (handler = createRequestHandler(build, mode)));
  return handler;
}

export function createSecureRequestHandler(opts: HandlerOptions) {
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (isCrossSiteWrite(req, opts.appOrigin)) {
      discardRest(req);
      return refuse(res, 403, "forbidden", "Cross-origin request refused");
    }
    let body: ReadBody;
    try {
      body = await readLimitedBody(req);
    } catch (error) {
      if (!(error instanceof BodyTooLargeError)) return next(error);
      discardRest(req);
      return refuse(res, 413, "payload_too_large", `The request body is over ${error.limit} bytes`);
    }
    if (body.kind === "file") res.on("close", body.cleanup);
    try {
      const build = await opts.getBuild();
      const handle = handlerOf(build, opts.mode);
      const nonce = newNonce();
      const request = remixRequest(req, res, body);
      const store = requestStorage().getStore();
      if (store) store.routeId = routeIdOf(build, new URL(request.url));
      const response = await withRequestId(
        withErrorShape(await handle(request, { cspNonce: nonce, clientIp: validIp(req.ip) })),
        store?.requestId,
      );
      const signedIn = /(?:^|;\s*)__session=/.test(req.get("cookie") ?? "") || !!req.get("authorization");
      const isPrivate = signedIn || req.path.startsWith("/api/");
      applySecurityHeaders(response.headers, {
        nonce,
        settings: opts.headers,
        private: isPrivate && !response.headers.has("Cache-Control"),
      });
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}
