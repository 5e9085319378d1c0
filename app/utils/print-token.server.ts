import { createHmac, timingSafeEqual } from "node:crypto";
import { env } from "./env.server";

// The print route is opened by the worker's Chromium, not by a signed-in browser: a short-lived
// token signed with the server secret names the export (and its organisation) it may print.

const TTL_SECONDS = 5 * 60;

type Payload = { e: number; o: number; exp: number };

function sign(body: string) {
  return createHmac("sha256", `print:${env().SESSION_SECRET}`).update(body).digest("base64url");
}

export function createPrintToken(exportId: number, organizationId: number, ttlSeconds = TTL_SECONDS) {
  const body = Buffer.from(
    JSON.stringify({
      e: exportId,
      o: organizationId,
      exp: Math.floor(Date.now() / 1000) + ttlSeconds,
    } satisfies Payload),
  ).toString("base64url");
  return `${body}.${sign(body)}`;
}

/** The export and organisation a valid, unexpired token names; null otherwise. */
export function verifyPrintToken(token: string | null): { exportId: number; organizationId: number } | null {
  if (!token) return null;
  const [body, signature] = token.split(".");
  if (!body || !signature) return null;
  const expected = Buffer.from(sign(body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const p = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Payload;
    if (!Number.isInteger(p.e) || !Number.isInteger(p.o) || typeof p.exp !== "number") return null;
    if (p.exp < Date.now() / 1000) return null;
    return { exportId: p.e, organizationId: p.o };
  } catch {
    return null;
  }
}
