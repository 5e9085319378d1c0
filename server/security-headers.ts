import crypto from "node:crypto";

// The headers every answer of the app carries (README "Security"). The CSP allows our own
// scripts plus the inline ones Remix writes (hydration data, window.ENV) by a per-request nonce.

export function newNonce() {
  return crypto.randomBytes(16).toString("base64");
}

export interface HeaderSettings {
  https: boolean;
  mapTileUrl: string;
  ably: boolean;
  dev: boolean;
}

function originOfTemplate(template: string): string | null {
  try {
    // A tile URL template: https://{s}.tile.example/{z}/{x}/{y}.png
    const url = new URL(template.replace(/\{s\}/g, "*").replace(/\{[^}]*\}/g, "0"));
    return url.protocol === "https:" || url.protocol === "http:" ? `${url.protocol}//${url.host}` : null;
  } catch {
    return null;
  }
}

export function contentSecurityPolicy(nonce: string, settings: HeaderSettings) {
  const tiles = originOfTemplate(settings.mapTileUrl);
  const connect = ["'self'"];
  if (settings.ably)
    connect.push("https://*.ably.io", "wss://*.ably.io", "https://*.ably-realtime.com", "wss://*.ably-realtime.com");
  if (settings.dev) connect.push("ws:");
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    // Leaflet and the editor position elements with style attributes.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${tiles ? ` ${tiles}` : ""}`,
    "font-src 'self' data:",
    `connect-src ${connect.join(" ")}`,
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    "form-action 'self' https://checkout.stripe.com https://billing.stripe.com",
  ].join("; ");
}

/** Adds the security headers to an answer of the app (the Remix handler's Response). */
export function applySecurityHeaders(
  headers: Headers,
  opts: { nonce: string; settings: HeaderSettings; private: boolean },
) {
  const type = headers.get("content-type") ?? "";
  if (type.startsWith("text/html"))
    headers.set("Content-Security-Policy", contentSecurityPolicy(opts.nonce, opts.settings));
  headers.set("X-Frame-Options", "DENY");
  headers.set("X-Content-Type-Options", "nosniff");
  if (!headers.has("Referrer-Policy")) headers.set("Referrer-Policy", "same-origin");
  if (opts.settings.https) headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  // Signed-in pages and API answers hold private data: never kept by a browser or a proxy.
  if (opts.private) headers.set("Cache-Control", "no-store");
}
