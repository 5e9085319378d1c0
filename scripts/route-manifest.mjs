// Remix's route manifest as one line per route, route ids and files left out: what answers which
// URL and inside which layout. tests/unit/route-manifest.test.ts compares it with the committed
// tests/unit/route-manifest.txt, so moving a route file can never change a URL unnoticed.
// Regenerate (only when a URL is meant to change): node scripts/route-manifest.mjs > tests/unit/route-manifest.txt
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The manifest as `remix routes --json` prints it: the tree the compiler builds the app from. */
function routeTree() {
  const cli = createRequire(import.meta.url).resolve("@remix-run/dev/dist/cli.js");
  const out = execFileSync(process.execPath, [cli, "routes", "--json"], { cwd: root, encoding: "utf8" });
  return JSON.parse(out);
}

/**
 * Each route as the chain of layouts it renders in, from the top: its full URL, "[index]" for an
 * index route, "[layout]" for a route without a path of its own. Sorted, so the list reads as a
 * table of the app's URLs.
 */
export function routeManifestLines() {
  const lines = [];
  const walk = (routes, parentPath, chain) => {
    for (const route of routes) {
      const own = route.path ?? "";
      const full = "/" + [parentPath, own].filter(Boolean).join("/");
      const label = full + (route.index ? " [index]" : own ? "" : " [layout]");
      const here = [...chain, label];
      lines.push(here.join(" > "));
      walk(route.children ?? [], [parentPath, own].filter(Boolean).join("/"), here);
    }
  };
  // The root route is every route's parent: start below it.
  for (const top of routeTree()) walk(top.children ?? [], "", []);
  return lines.sort();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(routeManifestLines().join("\n") + "\n");
}
