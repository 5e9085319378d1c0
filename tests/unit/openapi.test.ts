import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_EXAMPLES, API_OPERATIONS, API_RESPONSES, openApiDocument } from "~/services/openapi.server";

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

  type Op = {
    parameters: Array<{ name: string; in: string; required?: boolean; schema?: { type?: unknown } }>;
    requestBody?: unknown;
    responses: Record<string, { $ref?: string; content?: Record<string, { schema?: unknown }> }>;
  };
  const full = doc as unknown as {
    paths: Record<string, Record<string, Op>>;
    components: { schemas: Record<string, unknown>; responses: Record<string, { content: unknown }> };
  };
  const resolve = (value: unknown): unknown => {
    if (value && typeof value === "object" && "$ref" in value) {
      const [, , section, name] = String((value as { $ref: string }).$ref).split("/");
      const target = (full.components as Record<string, Record<string, unknown>>)[section]?.[name];
      expect(target, (value as { $ref: string }).$ref).toBeDefined();
      return resolve(target);
    }
    return value;
  };

  it("documents every path parameter, typed (ids as integers), and every $ref resolves", () => {
    for (const [p, methods] of Object.entries(full.paths))
      for (const [method, o] of Object.entries(methods)) {
        const names = [...p.matchAll(/\{([A-Za-z_]+)\}/g)].map((m) => m[1]);
        const inPath = o.parameters.filter((x) => x.in === "path");
        expect(
          inPath.map((x) => x.name),
          `${method} ${p}`,
        ).toEqual(names);
        for (const x of inPath) {
          expect(x.required).toBe(true);
          if (x.name === "id" || x.name.endsWith("_id"))
            expect(x.schema?.type, `${method} ${p} ${x.name}`).toBe("integer");
        }
        for (const r of Object.values(o.responses)) resolve(r);
      }
    JSON.stringify(doc, (_k, v) => (v && typeof v === "object" && "$ref" in v ? resolve(v) && v : v));
  });

  it("documents 422 with the field-errors shape wherever a body or query is accepted, 401/403 on signed-in calls, 404 with a path id", () => {
    const fieldErrors = resolve({ $ref: "#/components/schemas/FieldErrors" }) as {
      properties: { errors: { additionalProperties: { type: string; items: { type: string } } } };
    };
    expect(fieldErrors.properties.errors.additionalProperties).toEqual({ type: "array", items: { type: "string" } });
    let withBody = 0;
    for (const op of API_OPERATIONS) {
      const o = full.paths[op.path][op.method];
      const key = `${op.method} ${op.path}`;
      const query = o.parameters.some((x) => x.in === "query");
      if (op.body || op.multipart || query) {
        withBody++;
        const r = resolve(o.responses["422"]) as { content: Record<string, { schema: unknown }> };
        expect(r, key).toBeDefined();
        expect(resolve(r.content["application/json"].schema), key).toEqual(fieldErrors);
      }
      if (o.parameters.some((x) => x.in === "path")) expect(o.responses["404"], key).toBeDefined();
      if (op.path.startsWith("/api/web_app/") && !/\/(logins|registration)/.test(op.path)) {
        expect(o.responses["401"], key).toBeDefined();
        expect(o.responses["403"], key).toBeDefined();
      }
      const success = o.responses[op.created ? "201" : "200"];
      expect(success?.content?.["application/json"]?.schema, key).toBeDefined();
    }
    expect(withBody).toBeGreaterThan(60);
    expect(full.paths["/api/web_app/measurements/{id}/history"].get.parameters.map((x) => `${x.in}:${x.name}`)).toEqual(
      ["path:id", "query:kind"],
    );
    expect(API_RESPONSES["get /api/web_app/measurements/{id}/history"]).toBeDefined();
  });

  it("says 201 exactly where the route answers 201", () => {
    for (const op of API_OPERATIONS) {
      const code = fs.readFileSync(path.join(path.dirname(apiDir), op.file), "utf8");
      const creates = op.method === "post" && /status:\s*201/.test(code);
      expect(Boolean(op.created), `${op.method} ${op.path}`).toBe(creates);
    }
  });

  it("has examples for the main calls of each area", () => {
    const areas = Object.keys(API_EXAMPLES).map((k) => k.split(" ")[1].split("/")[3]);
    for (const area of [
      "measurements",
      "truck_measurements",
      "lumber_measurements",
      "containers",
      "logins",
      "inventories",
    ])
      expect(areas, area).toContain(area);
  });

  it("a wrong example would fail (the check can fail)", () => {
    const op = API_OPERATIONS.find((o) => o.method === "patch" && o.path === "/api/web_app/measurements/move_storage")!;
    expect(op.body!.safeParse({ move_storage: [{ measurement_id: "x" }] }).success).toBe(false);
  });
});
