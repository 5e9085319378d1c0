import { z } from "zod";
import { storageBelongs } from "~/models/export-rows.server";
import { countWoodYard } from "~/models/wood-yard.server";
import { ExportIdSchema } from "~/utils/schemas/export";
import type { RowSource } from "../types";

// The selection of the wood-yard exports: one storage (the dashboard row menu's).

export const WoodYardSelectionSchema = z
  .looseObject({
    storage_id: ExportIdSchema.optional(),
  })
  .transform((body, ctx) => {
    if (body.storage_id === undefined) {
      ctx.addIssue({ code: "custom", path: ["storage_id"], message: "exports:errors.emptySelection" });
      return z.NEVER;
    }
    return { storage_id: body.storage_id };
  });
export type WoodYardSelection = { storage_id: number };

/** `rows`: what the type writes one row per, for the progress figure. */
export function woodYardSource(rows: "logs" | "measurements"): RowSource<WoodYardSelection> {
  return {
    async request(db, ctx, selection) {
      if (!(await storageBelongs(db, ctx, selection.storage_id))) return "not_found";
      const count = await countWoodYard(db, ctx, selection.storage_id);
      return { selection, count: count.measurements };
    },
    revive: (params) => ({ storage_id: Number((params as WoodYardSelection).storage_id) }),
    async prepare(db, organizationId, selection) {
      if (!(await storageBelongs(db, { organizationId }, selection.storage_id)))
        return { records: 0, expectedRows: 0, leftOut: [] };
      const count = await countWoodYard(db, { organizationId }, selection.storage_id);
      return { records: count.measurements, expectedRows: count[rows], leftOut: [] };
    },
  };
}
