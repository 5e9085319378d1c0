import { z } from "zod";

// Inventories: one schema per payload, shared by POST /api/web_app/inventories, the inventories
// screen's forms, the list's filters and the inventories_excel selection.

const IdSchema = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** POST /inventories {storage_id}; the screen's create form posts the same field. */
export const CreateInventorySchema = z.object({ storage_id: IdSchema });

/** The list's filters (GET /inventories and the screen's query string): a storage and a month "yyyy-MM". */
export const InventoryFilterSchema = z.object({
  storage_id: IdSchema.optional(),
  month: z
    .string()
    .trim()
    .regex(/^(19[7-9]\d|20\d\d|2100)-(0[1-9]|1[0-2])$/, "inventories:errors.month")
    .optional(),
});
export type InventoryFilter = z.infer<typeof InventoryFilterSchema>;

/** Reads the filters from a query string, empty values dropped. */
export function inventoryFilterFromSearch(params: URLSearchParams) {
  const raw: Record<string, string> = {};
  for (const key of ["storage_id", "month"]) {
    const v = params.get(key)?.trim();
    if (v) raw[key] = v;
  }
  return { raw, parsed: InventoryFilterSchema.safeParse(raw) };
}

/** inventories_excel: one inventory, or all inventories of a storage (exactly one of the two). */
export const InventorySelectionSchema = z
  .looseObject({ inventory_id: IdSchema.optional(), storage_id: IdSchema.optional() })
  .superRefine((body, ctx) => {
    const given = [body.inventory_id, body.storage_id].filter((v) => v !== undefined).length;
    if (given !== 1)
      ctx.addIssue({ code: "custom", path: ["inventory_id"], message: "inventories:errors.oneSelection" });
  })
  .transform((body): InventorySelection =>
    body.inventory_id !== undefined ? { inventory_id: body.inventory_id } : { storage_id: body.storage_id! },
  );
export type InventorySelection = { inventory_id: number } | { storage_id: number };
