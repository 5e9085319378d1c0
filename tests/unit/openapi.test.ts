import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_EXAMPLES, API_OPERATIONS, openApiDocument } from "~/services/openapi.server";

// The OpenAPI document of /api/web_app and /api/device (decision 024): every route file under
// app/routes/api+ has its operations in it, every path in it is a route file's, and every example
// parses with the zod schema the route uses (the same one the JSON Schema was generated from).

const apiDir = path.resolve(__dirname, "../../app/routes/api+");
function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return routeFiles(p);
    return /\.tsx?$/.test(e.name) && !e.name.startsWith("__") ? [path.relative(path.dirname(apiDir), p)] : [];
  });
}
/** The document's own two routes describe the others. */
const NOT_OPERATIONS = new Set(["api+/openapi[.json].ts", "api+/docs.ts"]);

describe("the OpenAPI document", () => {
  const doc = openApiDocument() as { openapi: string; paths: Record<string, Record<string, unknown>> };

  it("is OpenAPI 3.1", () => expect(doc.openapi).toBe("3.1.0"));

  it("describes every route file under app/routes/api+", () => {
    const files = routeFiles(apiDir).filter((f) => !NOT_OPERATIONS.has(f));
    expect(files.length).toBeGreaterThan(90);
    const described = new Set(API_OPERATIONS.map((op) => op.file));
    expect(files.filter((f) => !described.has(f))).toEqual([]);
    expect([...described].filter((f) => !files.includes(f))).toEqual([]);
  });

  it("has each operation under its path and method, with a JSON Schema for each body a route parses", () => {
    for (const op of API_OPERATIONS) {
      const o = doc.paths[op.path]?.[op.method] as { requestBody?: unknown } | undefined;
      expect(o, `${op.method} ${op.path}`).toBeDefined();
      if (op.body || op.multipart) expect(o!.requestBody, `${op.method} ${op.path}`).toBeDefined();
    }
    const schemas = (openApiDocument() as { components: { schemas: Record<string, { type?: string }> } }).components
      .schemas;
    expect(Object.keys(schemas)).toContain("MeasurementPatchSchema");
    expect(Object.keys(schemas)).toContain("DeviceMeasurementSchema");
    for (const [name, s] of Object.entries(schemas)) expect(s.type ?? "object", name).toBeTruthy();
  });

  it("its examples parse with the routes' own schemas", () => {
    expect(Object.keys(API_EXAMPLES).length).toBeGreaterThan(0);
    for (const [key, example] of Object.entries(API_EXAMPLES)) {
      const [method, p] = key.split(" ");
      const op = API_OPERATIONS.find((o) => o.method === method && o.path === p);
      expect(op?.body, key).toBeDefined();
      const parsed = op!.body!.safeParse(example);
      expect(parsed.success, `${key}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
  });

  it("a wrong example would fail (the check can fail)", () => {
    const op = API_OPERATIONS.find((o) => o.method === "patch" && o.path === "/api/web_app/measurements/move_storage")!;
    expect(op.body!.safeParse({ move_storage: [{ measurement_id: "x" }] }).success).toBe(false);
  });
});
