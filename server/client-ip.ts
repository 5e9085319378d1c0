import net from "node:net";

/** The Express `trust proxy` value of the TRUST_PROXY setting. */
export function trustProxySetting(value: string): boolean | number | string {
  const v = value.trim().toLowerCase();
  if (v === "" || v === "false" || v === "0" || v === "off") return false;
  if (v === "true" || v === "on") return true;
  if (/^\d+$/.test(v)) return Number(v);
  return value.trim();
}

/** A client address worth storing (sessions.ip is varchar(64)): a valid IP, or null. */
export function validIp(value: string | undefined | null): string | null {
  if (!value) return null;
  const ip = value.startsWith("::ffff:") && net.isIPv4(value.slice(7)) ? value.slice(7) : value;
  return net.isIP(ip) && ip.length <= 64 ? ip : null;
}
