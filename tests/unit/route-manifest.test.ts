import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { routeManifestLines } from "../../scripts/route-manifest.mjs";

// Every URL of the app, and the layout it renders in, as Remix builds them from app/routes. Moving
// or renaming a route file must leave this list as it is; a URL that is meant to change is changed
// here too, in the same commit (node scripts/route-manifest.mjs > tests/unit/route-manifest.txt).
describe("route manifest", () => {
  // Runs the Remix CLI in a child process: seconds on a loaded machine.
  it("answers exactly the committed URLs, each in the same layout", { timeout: 60_000 }, () => {
    const committed = fs
      .readFileSync(new URL("./route-manifest.txt", import.meta.url), "utf8")
      .trimEnd()
      .split("\n");
    expect(routeManifestLines()).toEqual(committed);
  });
});
