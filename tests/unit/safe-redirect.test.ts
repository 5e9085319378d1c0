import { describe, expect, test } from "vitest";
import { safeRedirect } from "~/utils/safe-redirect";

// A small seeded generator, so a failure names a reproducible input.
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PIECES = [
  "/",
  "\\",
  "//",
  "\t",
  "\n",
  "\r",
  " ",
  "%2f",
  "%5c",
  "evil.example",
  "@",
  ":",
  ".",
  "..",
  "?",
  "#",
  "x",
  "%09",
  "\u0000",
  "javascript:",
  "http:",
  "https://evil.example",
  "%2F%2F",
];

/** Where a browser would go with this Location header, relative to the app. */
function browserTarget(location: string) {
  return new URL(location, "https://app.example/some/page");
}

describe("safeRedirect", () => {
  test.each([
    ["/\\evil.example/x"],
    ["/\tevil.example"],
    ["/\t/evil.example"],
    ["//evil.example"],
    ["/\\/evil.example"],
    ["https://evil.example/"],
    ["javascript:alert(1)"],
    ["\\\\evil.example"],
    [" /evil"],
    [""],
  ])("refuses %j", (value) => {
    expect(safeRedirect(value)).toBe("/");
  });

  test.each([
    ["/timber?x=1#a", "/timber?x=1#a"],
    ["/measurements/timber/12", "/measurements/timber/12"],
    ["/exports", "/exports"],
  ])("keeps the app's own path %j", (value, expected) => {
    expect(safeRedirect(value)).toBe(expected);
  });

  test("uses the fallback for anything that is not a string", () => {
    expect(safeRedirect(null, "/exports")).toBe("/exports");
    expect(safeRedirect(undefined)).toBe("/");
    expect(safeRedirect(42)).toBe("/");
  });

  test("fuzz: no generated target leaves the app's origin", () => {
    const next = random(20261123);
    for (let i = 0; i < 20_000; i++) {
      const parts = Array.from(
        { length: 1 + Math.floor(next() * 6) },
        () => PIECES[Math.floor(next() * PIECES.length)],
      );
      const value = parts.join("");
      const result = safeRedirect(value);
      const target = browserTarget(result);
      expect(target.origin, `input ${JSON.stringify(value)} -> ${result}`).toBe("https://app.example");
      expect(result.startsWith("/") && !result.startsWith("//") && !result.includes("\\")).toBe(true);
    }
  });
});
