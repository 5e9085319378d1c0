import { describe, expect, it } from "vitest";
import { api } from "#tests/helpers/http";

describe("GET /healthcheck", () => {
  it("reports both databases", async () => {
    const { status, data } = await api("/healthcheck");
    expect(status).toBe(200);
    expect(data.status).toBe("ok");
    expect(data.mysql.ok).toBe(true);
    expect(data.postgres.ok).toBe(true);
  });
});
