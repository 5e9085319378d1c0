// The one check of every redirect target that comes from a request (redirectTo of the login,
// banner, account and export forms): only a path of this app, never another host.
// Browsers read `/\host`, `/<TAB>/host` and `//host` as another host, so the target is parsed
// as the browser would, against a placeholder origin, and refused when the origin changes.
const BASE = "http://app.invalid";

export function safeRedirect(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return fallback;
  // Control characters and backslashes are never part of our own links; browsers strip or
  // rewrite them in ways that can move the target to another host.
  // eslint-disable-next-line no-control-regex
  if (!value.startsWith("/") || value.startsWith("//") || /[\\\u0000-\u001f\u007f]/.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  const path = url.pathname + url.search + url.hash;
  return path.startsWith("//") ? fallback : path;
}
