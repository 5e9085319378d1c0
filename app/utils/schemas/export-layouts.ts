import { z } from "zod";

// Configurable export layouts (docs/decisions/026-exports-and-labels.md): the targets, the keys
// of each target's column catalogue (the cells live in app/services/exports/layouts), and the
// form that saves a layout. Client-safe: the settings screen validates with it too.

export const LAYOUT_TARGETS = {
  dashboard: [
    "measurementId",
    "storage",
    "takenAt",
    "measuredAt",
    "measurementType",
    "woodType",
    "woodQuality",
    "assortment",
    "length",
    "logs",
    "volume",
    "formula",
    "comment",
  ],
  bill_of_lading: ["billOfLading", "container", "containers", "measurements", "logs", "volume"],
} as const satisfies Record<string, readonly string[]>;
export type LayoutTarget = keyof typeof LAYOUT_TARGETS;
export const LAYOUT_TARGET_NAMES = Object.keys(LAYOUT_TARGETS) as LayoutTarget[];

/** A header of one's own is at most this long (Excel shows it in one column). */
export const LAYOUT_HEADER_MAX = 64;

export type LayoutColumn = { key: string; header: string | null };

const optionalText = (max: number) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? v.trim() : v),
    z.string().max(max, "exports:layouts.errors.headerTooLong").optional(),
  );

/**
 * The screen's form: one row per catalogue column (key hidden, include checkbox, order number,
 * header text). The saved layout is the included rows in their order.
 */
export const ExportLayoutFormSchema = z
  .object({
    intent: z.literal("save"),
    target: z.enum(LAYOUT_TARGET_NAMES as [LayoutTarget, ...LayoutTarget[]], {
      message: "exports:layouts.errors.target",
    }),
    columns: z
      .array(
        z.object({
          key: z.string().max(32),
          include: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()),
          position: z.coerce
            .number({ message: "exports:layouts.errors.position" })
            .int("exports:layouts.errors.position")
            .min(1, "exports:layouts.errors.position")
            .max(99, "exports:layouts.errors.position")
            .optional(),
          header: optionalText(LAYOUT_HEADER_MAX),
        }),
      )
      .max(50),
  })
  .superRefine((value, ctx) => {
    const keys: readonly string[] = LAYOUT_TARGETS[value.target];
    const seen = new Set<string>();
    value.columns.forEach((c, i) => {
      if (!keys.includes(c.key) || seen.has(c.key))
        ctx.addIssue({ code: "custom", path: ["columns", i, "key"], message: "exports:layouts.errors.unknownColumn" });
      seen.add(c.key);
    });
    if (!value.columns.some((c) => c.include))
      ctx.addIssue({ code: "custom", path: ["columns"], message: "exports:layouts.errors.noColumns" });
  });
export type ExportLayoutForm = z.infer<typeof ExportLayoutFormSchema>;

/** The included columns in the chosen order (ties keep the catalogue's order). */
export function layoutColumnsOf(form: ExportLayoutForm): LayoutColumn[] {
  return form.columns
    .map((c, i) => ({ ...c, i }))
    .filter((c) => c.include)
    .sort((a, b) => (a.position ?? 100) - (b.position ?? 100) || a.i - b.i)
    .map((c) => ({ key: c.key, header: c.header ?? null }));
}
