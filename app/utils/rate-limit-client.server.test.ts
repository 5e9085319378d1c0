import { describe, expect, it } from "vitest";
import { rateLimitClient } from "./rate-limit-client.server";

describe("whose requests count together against the public rate limit", () => {
  it("is the IPv4 address itself", () => {
    expect(rateLimitClient("203.0.113.7")).toBe("203.0.113.7");
  });

  it("is the /64 network of an IPv6 address, however it is written", () => {
    const network = "2001:db8:85a3:42::/64";
    for (const ip of [
      "2001:db8:85a3:42::1",
      "2001:0db8:85a3:0042:ffff:ffff:ffff:ffff",
      "2001:DB8:85A3:42:1:2:3:4",
      "2001:db8:85a3:42:0:0:0.0.1.2",
    ])
      expect(rateLimitClient(ip), ip).toBe(network);
    expect(rateLimitClient("2001:db8:85a3:43::1")).toBe("2001:db8:85a3:43::/64");
    expect(rateLimitClient("::1")).toBe("0:0:0:0::/64");
    expect(rateLimitClient("fe80::")).toBe("fe80:0:0:0::/64");
  });

  it("is one bucket for an address the server could not tell", () => {
    expect(rateLimitClient(null)).toBe("unknown");
    expect(rateLimitClient("")).toBe("unknown");
    expect(rateLimitClient("not an address")).toBe("unknown");
  });
});
