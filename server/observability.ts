import crypto from "node:crypto";
import { requestMetrics } from "~/services/metrics.server";
import { requestStorage, type RequestContext } from "~/utils/request-context.server";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";

// One JSON log line and one histogram observation per request (README: Operations). The line
// names the Remix route id, never the URL: paths and queries may carry public tokens, and
// headers and bodies (passwords, bearer tokens, cookies) are never logged.

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,100}$/;

/** The request id: the one a trusted proxy sent (X-Request-Id, if it looks like one) or a new one. */
export function requestIdOf(header: string | undefined) {
  return header && REQUEST_ID.test(header) ? header : crypto.randomUUID();
}

export function logLine(fields: Record<string, unknown>) {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...fields })}\n`);
}

export function observeRequests(opts: { log: boolean }) {
  const histogram = requestMetrics();
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const store: RequestContext = { requestId: requestIdOf(req.get("x-request-id")) };
    req.headers["x-request-id"] = store.requestId;
    res.set("X-Request-Id", store.requestId);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // A request that never reached the Remix app was a public file (or refused before it).
      const route = store.routeId ?? "static";
      const status = res.writableFinished ? res.statusCode : 499;
      histogram.observe({ route, method: req.method, status: String(status) }, seconds);
      if (opts.log) {
        logLine({
          level: status >= 500 ? "error" : "info",
          msg: "request",
          requestId: store.requestId,
          method: req.method,
          route,
          status,
          durationMs: Math.round(seconds * 10_000) / 10,
          organizationId: store.organizationId ?? null,
        });
      }
    };
    res.on("finish", finish);
    res.on("close", finish);
    requestStorage().run(store, next);
  };
}
