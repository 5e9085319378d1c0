import { z } from "zod";
import { DEVICE_UPLOAD_FIELDS, isoDate } from "./measurement";
import { LogInputSchema, parseFilterDate, PHOTO_FORMULAS, ReferenceSchema } from "./timber";

// Payloads of the shipments dashboard of a pulp mill (docs/decisions/023-shipments.md): the
// dashboard's filters and page, the measurement cards' search, the two cmpc editor PATCHes and
// the truck-diameter device upload. Messages are translation keys ("timber" for what every
// measurement shares, "shipments" for the area's own).

/** Shipments per dashboard page. */
export const SHIPMENTS_PAGE_SIZE = 10;
export const TRUCK_DIAMETER_LOG_LIMIT = 2000;
export const CMPC_METHODS = ["truck", "truck_diameter"] as const;
export type CmpcMethod = (typeof CMPC_METHODS)[number];

const finite = () => z.number({ message: "timber:errors.number" }).finite("timber:errors.number");
const id = () => z.number({ message: "timber:errors.id" }).int("timber:errors.id").positive("timber:errors.id");
const text = (max: number) => z.string().trim().max(max, "shipments:errors.tooLong");
const unknownField = {
  error: (issue: { code?: string }) => (issue.code === "unrecognized_keys" ? "timber:errors.unknownField" : undefined),
};
const formula = () => z.enum(PHOTO_FORMULAS, { message: "timber:errors.formula" });
const references = () => z.array(ReferenceSchema).max(20, "shipments:errors.tooMany");

/** POST /api/device/truck_diameter_measurements: the `measurement` JSON part (the photo is the other). */
export const TruckDiameterDeviceSchema = z.object({
  ...DEVICE_UPLOAD_FIELDS,
  shipment_number: text(64).nullable().optional(),
  measured_at: isoDate().nullable().optional(),
  wood_type_id: id().nullable().optional(),
  log_length: finite().positive("timber:errors.positive").max(30, "timber:errors.logLength"),
  volume_formula: formula().default("cylinder"),
  trailer_license_plate: text(32).nullable().optional(),
  load_bed_name: text(64).nullable().optional(),
  detector: text(64).nullable().optional(),
  logs: z
    .array(LogInputSchema.pick({ x: true, y: true, r: true, isDeleted: true }))
    .max(TRUCK_DIAMETER_LOG_LIMIT, "shipments:errors.tooMany")
    .default([]),
  references: references().default([]),
});
export type TruckDiameterDeviceInput = z.infer<typeof TruckDiameterDeviceSchema>;

/**
 * PATCH /measurements/cmpc/truck_diameter/{id} {logs, logs_removed, references, volume_formula}:
 * a log with an id changes that log, one without is new (x, y and r needed). The editor also
 * sends cull_id and wood_characteristic_id, always null here (a truck-diameter log has neither).
 */
export const TruckDiameterPatchSchema = z
  .strictObject(
    {
      logs: z
        .array(
          z.strictObject(
            {
              id: id().optional(),
              x: finite().min(0).optional(),
              y: finite().min(0).optional(),
              r: finite().positive("timber:errors.positive").max(5000).optional(),
              isDeleted: z.boolean().optional(),
              cull_id: z.null().optional(),
              wood_characteristic_id: z.null().optional(),
            },
            unknownField,
          ),
        )
        .max(TRUCK_DIAMETER_LOG_LIMIT, "shipments:errors.tooMany")
        .optional(),
      logs_removed: z.array(id()).max(TRUCK_DIAMETER_LOG_LIMIT, "shipments:errors.tooMany").optional(),
      references: references().optional(),
      volume_formula: formula().optional(),
    },
    unknownField,
  )
  .refine((v) => Object.keys(v).length > 0, { message: "timber:errors.emptyPatch", path: ["_"] });
export type TruckDiameterPatch = z.infer<typeof TruckDiameterPatchSchema>;

/** PATCH /measurements/cmpc/truck/{id} {references, volume_formula}. */
export const TruckCmpcPatchSchema = z
  .strictObject({ references: references().optional(), volume_formula: formula().optional() }, unknownField)
  .refine((v) => Object.keys(v).length > 0, { message: "timber:errors.emptyPatch", path: ["_"] });
export type TruckCmpcPatch = z.infer<typeof TruckCmpcPatchSchema>;

/** POST /cmpc_dashboard/search {q: {f: {shipment_id, id}}}: one shipment's cards (or one card of it). */
export const CmpcSearchSchema = z.object({
  q: z.object({
    f: z.object({
      shipment_id: id(),
      id: id().optional(),
    }),
  }),
});

/**
 * GET /dashboard_filter/cmpc (and the screen's query string): page, shipment number (part of
 * it), created between two days (dd.MM.yyyy, yyyy-MM-dd or ISO), route status.
 */
export function cmpcFilterSchema(timeZone: string) {
  const day = (end: boolean) =>
    z
      .string()
      .trim()
      .max(40, "shipments:errors.tooLong")
      .transform((s, ctx) => {
        if (!s) return undefined;
        const d = parseFilterDate(s, end, timeZone);
        if (!d) {
          ctx.addIssue({ code: "custom", message: "timber:errors.date" });
          return z.NEVER;
        }
        return d;
      })
      .optional();
  return z
    .object({
      page: z.coerce
        .number({ message: "shipments:errors.page" })
        .int("shipments:errors.page")
        .min(1, "shipments:errors.page")
        .max(100_000, "shipments:errors.page")
        .default(1),
      shipment_number: text(64).optional(),
      created_at_start: day(false),
      created_at_end: day(true),
      route_status: z
        .enum(["", "completed", "none"], { message: "shipments:errors.routeStatus" })
        .optional()
        .transform((v) => v || undefined),
    })
    .superRefine((f, ctx) => {
      if (f.created_at_start && f.created_at_end && f.created_at_start > f.created_at_end)
        ctx.addIssue({ code: "custom", path: ["created_at_end"], message: "shipments:errors.dateOrder" });
    });
}
export type CmpcFilter = z.infer<ReturnType<typeof cmpcFilterSchema>>;

/** The filter's query keys, read from a URL (unknown keys ignored). */
export function cmpcParams(search: URLSearchParams) {
  const out: Record<string, string> = {};
  for (const key of ["page", "shipment_number", "created_at_start", "created_at_end", "route_status"])
    if (search.has(key)) out[key] = search.get(key) ?? "";
  return out;
}
