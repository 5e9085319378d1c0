import { describe, expect, it, vi } from "vitest";
import { trustProxySetting, validIp } from "../../server/client-ip";
import { isCrossSiteWrite } from "../../server/origin-check";
import { applySecurityHeaders, contentSecurityPolicy } from "../../server/security-headers";
import type { Request as ExpressRequest } from "express";

const settings = { https: false, mapTileUrl: "https://{s}.tile.example.org/{z}/{x}/{y}.png", ably: false, dev: false };

function req(method: string, headers: Record<string, string>): ExpressRequest {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    method,
    protocol: "http",
    get: (name: string) => (name.toLowerCase() === "host" ? "app.example:3000" : lower[name.toLowerCase()]),
  } as unknown as ExpressRequest;
}

describe("client address", () => {
  it("keeps only a valid IP that fits sessions.ip", () => {
    expect(validIp("203.0.113.9")).toBe("203.0.113.9");
    expect(validIp("::ffff:10.0.0.1")).toBe("10.0.0.1");
    expect(validIp("2001:db8::1")).toBe("2001:db8::1");
    expect(validIp(`${"9".repeat(300)}, 203.0.113.9`)).toBeNull();
    expect(validIp("")).toBeNull();
    expect(validIp(undefined)).toBeNull();
  });

  it("reads TRUST_PROXY as Express's trust proxy (off by default)", () => {
    expect(trustProxySetting("false")).toBe(false);
    expect(trustProxySetting("")).toBe(false);
    expect(trustProxySetting("true")).toBe(true);
    expect(trustProxySetting("1")).toBe(1);
    expect(trustProxySetting("loopback, 10.0.0.0/8")).toBe("loopback, 10.0.0.0/8");
  });
});

describe("origin check", () => {
  const app = "https://timber.example";
  it("refuses writes from another origin, by Origin or Referer", () => {
    expect(isCrossSiteWrite(req("POST", { Origin: "https://evil.example" }), app)).toBe(true);
    expect(isCrossSiteWrite(req("DELETE", { Origin: "null" }), app)).toBe(true);
    expect(isCrossSiteWrite(req("PATCH", { Referer: "https://evil.example/x" }), app)).toBe(true);
    expect(isCrossSiteWrite(req("POST", { Referer: "not a url" }), app)).toBe(true);
  });
  it("lets through reads, the app's own origin, bearer calls and clients without either header", () => {
    expect(isCrossSiteWrite(req("GET", { Origin: "https://evil.example" }), app)).toBe(false);
    expect(isCrossSiteWrite(req("POST", { Origin: app }), app)).toBe(false);
    expect(isCrossSiteWrite(req("POST", { Origin: "http://app.example:3000" }), app)).toBe(false);
    expect(isCrossSiteWrite(req("POST", { Origin: "https://evil.example", Authorization: "Bearer abc" }), app)).toBe(
      false,
    );
    expect(isCrossSiteWrite(req("POST", {}), app)).toBe(false);
  });
});

describe("security headers", () => {
  it("the CSP allows our scripts by nonce, the map tiles' host, and no framing", () => {
    const csp = contentSecurityPolicy("n0nce", settings);
    expect(csp).toContain("script-src 'self' 'nonce-n0nce'");
    expect(csp).toContain("img-src 'self' data: blob: https://*.tile.example.org");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-eval");
  });
  it("HSTS only over https; no-store on private answers", () => {
    const plain = new Headers({ "Content-Type": "text/html" });
    applySecurityHeaders(plain, { nonce: "n", settings, private: true });
    expect(plain.get("strict-transport-security")).toBeNull();
    expect(plain.get("cache-control")).toBe("no-store");
    expect(plain.get("x-frame-options")).toBe("DENY");
    const secure = new Headers({ "Content-Type": "application/json" });
    applySecurityHeaders(secure, { nonce: "n", settings: { ...settings, https: true }, private: false });
    expect(secure.get("strict-transport-security")).toContain("max-age=");
    expect(secure.get("cache-control")).toBeNull();
    expect(secure.get("content-security-policy")).toBeNull();
  });
  it("the session cookie is Secure when the app is served over https, not on a plain-http demo", async () => {
    const cookieWith = async (appUrl: string) => {
      vi.resetModules();
      process.env.APP_URL = appUrl;
      const { resetEnv } = await import("~/utils/env.server");
      resetEnv();
      const { sessionCookie } = await import("~/utils/session.server");
      return sessionCookie.serialize("token");
    };
    const before = process.env.APP_URL;
    try {
      expect(await cookieWith("https://timber.example")).toMatch(/; Secure/);
      expect(await cookieWith("http://localhost:3000")).not.toMatch(/Secure/);
    } finally {
      if (before === undefined) delete process.env.APP_URL;
      else process.env.APP_URL = before;
      vi.resetModules();
    }
  });
});
