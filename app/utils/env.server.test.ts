import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.server";

describe("parseEnv", () => {
  it("gives working local defaults", () => {
    const env = parseEnv({});
    expect(env.DATABASE_URL).toBe("mysql://root@127.0.0.1:3306/timber");
    expect(env.JOBS_DATABASE_URL).toBe("postgres://postgres@127.0.0.1:5432/timber_jobs");
    expect(env.PORT).toBe(3000);
    expect(env.ABLY_API_KEY).toBeUndefined();
  });

  it("names every setting that is wrong", () => {
    const message = (() => {
      try {
        parseEnv({ DATABASE_URL: "postgres://x", PORT: "abc", ABLY_API_KEY: "nope" });
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toMatch(/^Invalid environment configuration:/);
    expect(message).toContain("DATABASE_URL: must be a mysql:// URL");
    expect(message).toMatch(/PORT: .*number/);
    expect(message).toContain("ABLY_API_KEY: must look like appId.keyId:secret");
  });

  it("refuses the development session secret in production", () => {
    expect(() => parseEnv({ NODE_ENV: "production" })).toThrowError(/SESSION_SECRET: must be set in production/);
    expect(parseEnv({ NODE_ENV: "production", SESSION_SECRET: "x".repeat(40) }).NODE_ENV).toBe("production");
  });
});
