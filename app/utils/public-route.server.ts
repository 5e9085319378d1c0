import { json, type AppLoadContext, type HeadersFunction } from "@remix-run/node";
import {
  notePublicLinkOpened,
  resolvePublicToken,
  type PublicGrant,
  type PublicKind,
} from "~/models/public-link.server";
import { countPublicRequest } from "~/models/public-rate-limit.server";
import { fileResponse, fileStorage } from "~/services/file-storage.server";
import { db } from "./db.server";
import { env } from "./env.server";
import { getLanguage, i18nServer } from "./i18n.server";
import { clientIp } from "./load-context";
import { rateLimitClient } from "./rate-limit-client.server";

// The one door of every public route (pages, their JSON, photos and pictures): the per-address
// rate limit (429), the token's grant of one record of the route's kind (404 otherwise, the same
// work for every token), "last opened", and the headers every public answer carries. A public
// loader starts with `requirePublicGrant`, answers through `publicJson` / `publicFile`, and a page
// exports `headers = publicHeaders`. docs/decisions/013-public-links.md shows a new kind plugging in.

/** Headers of every public answer, a refusal included. */
export const PUBLIC_HEADERS: Readonly<Record<string, string>> = {
  // The record is only for the token's holder: no browser or proxy keeps it, so a rotated or
  // stopped link stops at once everywhere.
  "Cache-Control": "no-store",
  // Never in a search engine, even when a link is posted somewhere public.
  "X-Robots-Tag": "noindex, nofollow",
  // The token is in the URL: never passed on to another page or site.
  "Referrer-Policy": "no-referrer",
};

export interface PublicRouteOptions {
  /** Counts as an opening of the link (pages, JSON and the .jpeg); photos and thumbnails of a page do not. */
  opened?: boolean;
  /** Only for organisations with the vmu flag (the /vmu_public form). */
  vmuOnly?: boolean;
}

/** 404 in the public answers' shape and headers: the same for an unknown, rotated or stopped link. */
export function publicNotFound(): never {
  throw json({ error: "not_found" }, { status: 404, headers: PUBLIC_HEADERS });
}

/**
 * The grant of the route's token: thrown 429 when the client's address is over its limit, 404
 * when the token grants nothing of this kind (unknown, rotated, stopped, another kind's token).
 */
export async function requirePublicGrant(
  request: Request,
  context: AppLoadContext | undefined,
  token: string | undefined,
  kind: PublicKind,
  opts: PublicRouteOptions = {},
): Promise<PublicGrant> {
  const count = await countPublicRequest(db(), rateLimitClient(clientIp(context)), env().PUBLIC_RATE_LIMIT);
  if (!count.allowed) {
    throw json(
      { error: "too_many_requests" },
      { status: 429, headers: { ...PUBLIC_HEADERS, "Retry-After": String(count.retryAfter) } },
    );
  }
  const grant = await resolvePublicToken(db(), token ?? "");
  if (!grant || grant.kind !== kind || (opts.vmuOnly && !grant.vmuEnabled)) publicNotFound();
  if (opts.opened ?? true) await notePublicLinkOpened(db(), grant.linkId);
  return grant;
}

/** A public JSON answer (the API reads and the pages' loader data). */
export function publicJson<T>(data: T) {
  return json(data, { headers: PUBLIC_HEADERS });
}

/**
 * A stored file as a public answer (a photo, a thumbnail, a rendered picture); 404 when it is
 * missing. `fileName` names it for saving while it still shows in the browser.
 */
export async function publicFile(key: string | null | undefined, opts: { fileName?: string } = {}) {
  const response = key ? await fileResponse(fileStorage(), key, { cacheControl: "no-store" }) : null;
  if (!response) publicNotFound();
  for (const [name, value] of Object.entries(PUBLIC_HEADERS)) response.headers.set(name, value);
  if (opts.fileName) response.headers.set("Content-Disposition", `inline; filename="${opts.fileName}"`);
  return response;
}

/** The `headers` of a public page: the public headers, and a refusal's Retry-After. */
export const publicHeaders: HeadersFunction = ({ errorHeaders }) => {
  const headers = new Headers(PUBLIC_HEADERS);
  const retry = errorHeaders?.get("Retry-After");
  if (retry) headers.set("Retry-After", retry);
  return headers;
};

/**
 * The visitor's language (the page's ?lng, the language cookie, the browser's) and a `t` of it
 * for names and titles made on the server (keys with their namespace: "lookups:...", "timber:...").
 */
export async function publicLanguage(request: Request) {
  const language = await getLanguage(request);
  return { language, t: await i18nServer.getFixedT(language) };
}

/** A page number of a URL: a whole number from 1, else null (the caller answers 404). */
export function pageNumber(value: string | null | undefined): number | null {
  if (value === null || value === undefined || value === "") return 1;
  return /^[1-9]\d{0,5}$/.test(value) ? Number(value) : null;
}
