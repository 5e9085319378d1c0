import { afterEach, beforeEach, vi } from "vitest";

// A test that logs an unexpected error is a failing test: the error would otherwise scroll past.
let spy: ReturnType<typeof vi.spyOn> | undefined;

beforeEach(() => {
  spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error called during test: ${args.map(String).join(" ")}`);
  });
});

afterEach(() => {
  spy?.mockRestore();
});
