import { isIP } from "node:net";

/**
 * Whose requests count together against a rate limit: an IPv4 address, or the /64 network of an
 * IPv6 address (one home or server is given a whole /64 and can pick any address in it, so a
 * limit per IPv6 address limits nothing). "unknown" when the server could not tell.
 */
export function rateLimitClient(ip: string | null | undefined): string {
  if (!ip) return "unknown";
  const version = isIP(ip);
  if (version === 4) return ip;
  if (version !== 6) return "unknown";
  return `${expandIpv6(ip).slice(0, 4).join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, lower-case hex without leading zeros. */
function expandIpv6(ip: string): string[] {
  const [head, tail] = ip.toLowerCase().split("::") as [string, string | undefined];
  const groups = (part: string | undefined) =>
    !part
      ? []
      : part.split(":").flatMap((g) => {
          if (!g.includes(".")) return [g];
          // An IPv4 tail (::ffff:1.2.3.4 and the like) is two groups.
          const [a, b, c, d] = g.split(".").map(Number);
          return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
        });
  const left = groups(head);
  const right = groups(tail);
  const zeros = tail === undefined ? [] : Array(8 - left.length - right.length).fill("0");
  return [...left, ...zeros, ...right].map((g) => parseInt(g, 16).toString(16));
}
