import { inject } from "vitest";

export const baseUrl = () => inject("app").baseUrl;

/** A call to the running app; JSON bodies are encoded, the answer's JSON (if any) decoded. */
export async function api(
  path: string,
  opts: {
    method?: string;
    token?: string;
    cookie?: string;
    json?: unknown;
    form?: Record<string, string>;
    headers?: Record<string, string>;
  } = {},
) {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  if (opts.cookie) headers.Cookie = opts.cookie;
  let body: BodyInit | undefined;
  if (opts.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(opts.json);
  } else if (opts.form) {
    body = new URLSearchParams(opts.form);
  }
  const response = await fetch(`${baseUrl()}${path}`, {
    method: opts.method ?? (body ? "POST" : "GET"),
    headers,
    body,
    redirect: "manual",
  });
  const text = await response.text();
  let data: any = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  return { status: response.status, data, headers: response.headers };
}
