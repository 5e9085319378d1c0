import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// History rows can never be edited or deleted by any route (docs/decisions/024-trust.md): no code
// of the app updates or deletes measurement_history, and its only route answers GET alone. The
// organisation's own deletion cascades in the database; that is not a route.

const root = path.resolve(__dirname, "../..");

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p) : /\.(ts|tsx|mjs|js)$/.test(e.name) ? [p] : [];
  });
}

const code = ["app", "jobs", "server.js"]
  .map((p) => path.join(root, p))
  .filter((p) => fs.existsSync(p))
  .flatMap((p) => (fs.statSync(p).isDirectory() ? files(p) : [p]));

describe("measurement_history is append-only", () => {
  it("is never the target of an update or a delete in the app's code", () => {
    const offenders: string[] = [];
    for (const file of code) {
      const text = fs.readFileSync(file, "utf8");
      const patterns = [
        /(updateTable|deleteFrom|replaceInto)\(\s*["'`]measurement_history/,
        /\b(UPDATE|DELETE\s+FROM|TRUNCATE(\s+TABLE)?|REPLACE\s+INTO|DROP\s+TABLE)\s+`?measurement_history\b/i,
      ];
      if (patterns.some((p) => p.test(text))) offenders.push(path.relative(root, file));
    }
    expect(offenders).toEqual([]);
  });

  it("the patterns above catch what they look for (so the test can fail)", () => {
    expect(
      /(updateTable|deleteFrom|replaceInto)\(\s*["'`]measurement_history/.test('db.deleteFrom("measurement_history")'),
    ).toBe(true);
    expect(/\b(UPDATE|DELETE\s+FROM)\s+`?measurement_history\b/i.test("delete from measurement_history where")).toBe(
      true,
    );
  });

  it("only inserts and reads it, and only from its model", () => {
    const touching = code
      .filter((f) => fs.readFileSync(f, "utf8").includes('"measurement_history'))
      .map((f) => path.relative(root, f));
    expect(touching).toEqual(["app/models/measurement-history.server.ts"]);
  });

  it("its routes answer GET only (every other verb is 405)", () => {
    const routes = files(path.join(root, "app/routes")).filter((f) => /history/.test(path.basename(f)));
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      const text = fs.readFileSync(route, "utf8");
      expect(text, route).toMatch(/export function action\(\) \{\s*return methodNotAllowed\(\);\s*\}/);
      expect(text, route).not.toMatch(/insertInto|updateTable|deleteFrom|recordHistory/);
    }
  });
});
