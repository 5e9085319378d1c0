import { createHmac, randomBytes } from "node:crypto";
import { env } from "./env.server";
import { hashToken } from "./token.server";

// Public link tokens (docs/decisions/013-public-links.md). A link row keeps a random 128-bit
// seed and the SHA-256 of its token; the token is HMAC-SHA256(server key, seed), cut to 192 bits.
// So the owner can be shown the link again (derive it from the seed), a visitor's token is
// found by its hash, and someone who reads the database alone holds neither tokens nor a way to
// make them.

/** 192 bits as 32 base64url characters. */
export const PUBLIC_TOKEN_LENGTH = 32;
const SEED_BYTES = 16;

let cachedKey: { secret: string; key: Buffer } | undefined;

// A stored link's token, by seed and hash, under the current key. Deriving and checking one
// costs ~9 µs (an HMAC and a SHA-256), and the dashboards show a link for each of their hundreds
// of storages on every call: ~3 ms a call for 300 storages. Cleared when the key changes.
const storedTokens = new Map<string, string | null>();
const STORED_TOKENS_MAX = 50_000;

/** The server's key for public tokens, derived from SESSION_SECRET (a key of its own purpose). */
function tokenKey(): Buffer {
  const secret = env().SESSION_SECRET;
  if (cachedKey?.secret !== secret) {
    cachedKey = { secret, key: createHmac("sha256", secret).update("public-link-token/v1").digest() };
    storedTokens.clear();
  }
  return cachedKey.key;
}

/** A new random seed (128 bits, 22 base64url characters). */
export function newPublicTokenSeed(): string {
  return randomBytes(SEED_BYTES).toString("base64url");
}

/** The token a seed stands for under this server's secret. */
export function publicTokenOf(seed: string): string {
  return createHmac("sha256", tokenKey()).update(seed).digest("base64url").slice(0, PUBLIC_TOKEN_LENGTH);
}

/** What a link row keeps of a token: its SHA-256, hex. */
export const hashPublicToken = hashToken;

/**
 * The token of a stored link, or null when it cannot be shown: made before links kept seeds, or
 * the server secret changed since (the link still opens; rotating gives a showable one).
 */
export function storedPublicToken(link: { token_seed: string | null; token_hash: string }): string | null {
  if (!link.token_seed) return null;
  tokenKey();
  const cacheKey = `${link.token_seed}|${link.token_hash}`;
  let token = storedTokens.get(cacheKey);
  if (token === undefined) {
    const derived = publicTokenOf(link.token_seed);
    token = hashPublicToken(derived) === link.token_hash ? derived : null;
    if (storedTokens.size >= STORED_TOKENS_MAX) storedTokens.clear();
    storedTokens.set(cacheKey, token);
  }
  return token;
}
