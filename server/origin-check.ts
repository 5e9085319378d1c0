import type { Request as ExpressRequest } from "express";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF defence: a state-changing request that a browser sends with an Origin (or, without it,
 * a Referer) of another site is refused. Bearer-token calls carry no ambient credential (a
 * foreign page cannot set the header without our CORS consent), and clients that send neither
 * header are not browsers acting for someone else.
 */
export function isCrossSiteWrite(req: ExpressRequest, appOrigin: string): boolean {
  if (SAFE_METHODS.has(req.method)) return false;
  if (/^Bearer\s+\S+$/i.test(req.get("authorization") ?? "")) return false;
  const source = req.get("origin") ?? originOf(req.get("referer"));
  if (source === undefined) return false;
  const own = `${req.protocol}://${req.get("host")}`;
  return source !== appOrigin && source !== own;
}

function originOf(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return "null";
  }
}
