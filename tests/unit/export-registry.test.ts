import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SUPPORTED_LANGUAGES } from "~/i18n";
import { EXPORT_TYPES, parseExportRequest, SPEC_REPORT_TYPES } from "~/services/exports/registry.server";
import { SELECTION_KEYS, type ExportType } from "~/services/exports/types";
import { flattenLocale, readLocale } from "../helpers/locale-keys";

const localesDir = fileURLToPath(new URL("../../locales", import.meta.url));

describe("the export registry", () => {
  it("holds each report type once, of a known kind, taking only the spec's ids", () => {
    const names = EXPORT_TYPES.map((t) => t.reportType);
    expect(new Set(names).size).toBe(names.length);
    for (const type of EXPORT_TYPES) {
      expect(["excel", "pdf"]).toContain(type.kind);
      for (const key of type.selectionKeys) expect(SELECTION_KEYS).toContain(key);
      if (type.pathKey) expect(type.selectionKeys).toContain(type.pathKey);
      if (type.kind === "pdf") expect(type.printPath).toMatch(/^\/print\//);
    }
    // The types that existed before the registry are all on it.
    expect(names).toEqual(
      expect.arrayContaining(["dashboard_excel", "log_by_log_excel", "precise_log_by_log_excel", "measurement_pdf"]),
    );
  });

  it.each(SUPPORTED_LANGUAGES)("names every registered type in %s", (lng) => {
    const keys = flattenLocale(readLocale(localesDir, lng, "exports"));
    const missing = EXPORT_TYPES.map((t) => t.labelKey.replace(/^exports:/, "")).filter((key) => !keys.get(key));
    expect(missing, `labels missing from ${lng}/exports.json`).toEqual([]);
    for (const key of ["errors.reportType", "errors.notAvailable", "errors.featureUnavailable"])
      expect(keys.get(key), `${lng}/exports.json ${key}`).toBeTruthy();
  });

  it("makes every type of the spec (issue 20/26: the container types were the last)", () => {
    const missing = (["excel", "pdf"] as const).flatMap((kind) =>
      SPEC_REPORT_TYPES[kind].filter((name) => !EXPORT_TYPES.some((t) => t.reportType === name && t.kind === kind)),
    );
    expect(missing).toEqual([]);
    expect(EXPORT_TYPES.map((t) => t.reportType)).toEqual(
      expect.arrayContaining([
        "container_dashboard_excel",
        "container_log_by_log_excel",
        "bill_of_lading_invoice_excel",
      ]),
    );
  });

  it("answers a type of the spec that is not made yet with notAvailable, an unknown one with reportType", () => {
    // Every spec type is made now: a registry without the container types stands for one that is not.
    const CONTAINER_TYPES = ["container_dashboard_excel", "container_log_by_log_excel", "bill_of_lading_invoice_excel"];
    const registry = EXPORT_TYPES.filter((t) => !CONTAINER_TYPES.includes(t.reportType));
    const planned = (["excel", "pdf"] as const).flatMap((kind) =>
      SPEC_REPORT_TYPES[kind]
        .filter((name) => !registry.some((t) => t.reportType === name))
        .map((name) => [kind, name] as const),
    );
    expect(planned.map(([, name]) => name).sort()).toEqual([...CONTAINER_TYPES].sort());
    for (const [kind, name] of planned) {
      const parsed = parseExportRequest(kind, { report_type: name, measurement_ids: [1] }, [], { registry });
      expect(parsed.ok ? null : parsed.refusal, name).toEqual({
        error: "validation_failed",
        errors: { report_type: ["exports:errors.notAvailable"] },
      });
    }
    for (const body of [{}, { report_type: "" }, { report_type: 5 }, { report_type: "no_such_report" }]) {
      const parsed = parseExportRequest("excel", body, []);
      expect(parsed.ok ? null : parsed.refusal.errors).toEqual({ report_type: ["exports:errors.reportType"] });
    }
    // A PDF type is not an Excel one.
    const wrongKind = parseExportRequest("excel", { report_type: "measurement_pdf", measurement_ids: [1] }, []);
    expect(wrongKind.ok ? null : wrongKind.refusal.errors).toEqual({ report_type: ["exports:errors.reportType"] });
  });

  // A type with an entitlement and its own selection, as a later issue's module would declare it.
  const gated: ExportType<{ report_id: number }> = {
    reportType: "reports_excel",
    kind: "excel",
    labelKey: "exports:types.reports_excel",
    feature: "reports",
    selectionKeys: ["report_id"],
    selection: z.looseObject({ report_id: z.coerce.number().int().positive() }).transform((b) => ({
      report_id: b.report_id,
    })),
    source: {
      request: async (_db, _ctx, selection) => ({ selection, count: 1 }),
      revive: (params) => params as { report_id: number },
      prepare: async () => ({ records: 1, expectedRows: 1, leftOut: [] }),
    },
    write: async () => ({ rowCount: 0 }),
  };
  const registry = [...EXPORT_TYPES, gated];

  it("refuses a type whose feature the organisation lacks, before reading the selection", () => {
    const without = parseExportRequest("excel", { report_type: "reports_excel", report_id: "x" }, [], { registry });
    expect(without.ok ? null : without.refusal).toEqual({
      error: "feature_unavailable",
      feature: "reports",
      errors: { report_type: ["exports:errors.featureUnavailable"] },
    });
    const bad = parseExportRequest("excel", { report_type: "reports_excel", report_id: "x" }, ["reports"], {
      registry,
    });
    expect(bad.ok ? null : Object.keys(bad.refusal.errors)).toEqual(["report_id"]);
    const ok = parseExportRequest("excel", { report_type: "reports_excel", report_id: "7" }, ["reports"], {
      registry,
    });
    expect(ok.ok && ok.selection).toEqual({ report_id: 7 });
  });

  it("refuses the ids a type does not take, every one at once, beside its own schema's errors", () => {
    const parsed = parseExportRequest(
      "excel",
      { report_type: "reports_excel", report_id: "x", storage_id: 3, container_id: 4 },
      ["reports"],
      { registry },
    );
    expect(parsed.ok ? null : parsed.refusal.errors).toEqual({
      storage_id: ["exports:errors.unsupportedSelection"],
      container_id: ["exports:errors.unsupportedSelection"],
      report_id: [expect.any(String)],
    });
  });

  it("puts the path's id under the type's pathKey and ignores the body's ids (POST /pdf_exports/{id})", () => {
    const parsed = parseExportRequest("pdf", { report_type: "measurement_pdf", measurement_ids: [1, 2, 3] }, [], {
      pathId: 9,
    });
    expect(parsed.ok && parsed.selection).toEqual({ measurement_ids: [9] });
    const noPath = parseExportRequest("excel", { report_type: "log_by_log_excel" }, [], { pathId: 9 });
    expect(noPath.ok ? null : noPath.refusal.errors).toEqual({ report_type: ["exports:errors.reportType"] });
  });
});
