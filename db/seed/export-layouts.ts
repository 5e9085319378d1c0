import { sql } from "kysely";
import { getExportLayout, saveExportLayout } from "~/models/export-layout.server";
import type { DB } from "~/utils/db.server";
import type { LayoutColumn, LayoutTarget } from "~/utils/schemas/export-layouts";

// The demo organisation's own export layouts (docs/decisions/026-exports-and-labels.md,
// "Configurable export layouts"): the flag custom_export_layouts and one layout per target, as a
// buyer might ask for them. Run again, it adds nothing (returns how many layouts it wrote).

const LAYOUTS: Record<LayoutTarget, LayoutColumn[]> = {
  dashboard: [
    { key: "takenAt", header: "Date" },
    { key: "storage", header: "Yard" },
    { key: "assortment", header: null },
    { key: "logs", header: "Pieces" },
    { key: "volume", header: null },
    { key: "measurementId", header: "Ref." },
  ],
  bill_of_lading: [
    { key: "billOfLading", header: "B/L" },
    { key: "container", header: null },
    { key: "logs", header: "Pieces" },
    { key: "volume", header: null },
  ],
};

export async function seedExportLayouts(db: DB, organizationId: number, opts: { log?: (s: string) => void } = {}) {
  await sql`UPDATE organizations SET features = JSON_ARRAY_APPEND(features, '$', 'custom_export_layouts')
    WHERE id = ${organizationId} AND NOT JSON_CONTAINS(features, '"custom_export_layouts"')`.execute(db);
  let made = 0;
  for (const [target, columns] of Object.entries(LAYOUTS) as [LayoutTarget, LayoutColumn[]][]) {
    if (await getExportLayout(db, { organizationId }, target)) continue;
    await saveExportLayout(db, { organizationId, userId: null }, target, columns);
    made++;
  }
  if (made) opts.log?.(`export layouts: ${made}`);
  return made;
}
