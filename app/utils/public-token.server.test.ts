import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resetEnv } from "./env.server";
import { hashPublicToken, newPublicTokenSeed, publicTokenOf, storedPublicToken } from "./public-token.server";

describe("storedPublicToken", () => {
  const saved = process.env.SESSION_SECRET;
  beforeEach(() => {
    process.env.SESSION_SECRET = "a".repeat(40);
    resetEnv();
  });
  afterEach(() => {
    process.env.SESSION_SECRET = saved;
    resetEnv();
  });

  it("shows a link's token from its seed, again and again, and nothing for a hash that does not fit", () => {
    const seed = newPublicTokenSeed();
    const token = publicTokenOf(seed);
    const link = { token_seed: seed, token_hash: hashPublicToken(token) };
    expect(storedPublicToken(link)).toBe(token);
    expect(storedPublicToken(link)).toBe(token);
    expect(storedPublicToken({ token_seed: seed, token_hash: hashPublicToken("other") })).toBeNull();
    expect(storedPublicToken({ token_seed: null, token_hash: link.token_hash })).toBeNull();
  });

  it("shows no token once the server secret changed, though it was shown before", () => {
    const seed = newPublicTokenSeed();
    const link = { token_seed: seed, token_hash: hashPublicToken(publicTokenOf(seed)) };
    expect(storedPublicToken(link)).not.toBeNull();
    process.env.SESSION_SECRET = "b".repeat(40);
    resetEnv();
    expect(storedPublicToken(link)).toBeNull();
  });
});
