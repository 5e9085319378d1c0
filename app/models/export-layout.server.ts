import type { DB } from "~/utils/db.server";
import { LAYOUT_TARGETS, type LayoutColumn, type LayoutTarget } from "~/utils/schemas/export-layouts";

// Export layouts of the caller's organisation (docs/decisions/026-exports-and-labels.md,
// "Configurable export layouts"). Every read and write is scoped by ctx.organizationId.

type Ctx = { organizationId: number };

function parseColumns(raw: unknown, target: LayoutTarget): LayoutColumn[] {
  const value = typeof raw === "string" ? JSON.parse(raw) : raw;
  const keys: readonly string[] = LAYOUT_TARGETS[target];
  if (!Array.isArray(value)) return [];
  // A key the catalogue no longer has is dropped, never written as an empty column.
  return value
    .filter((c): c is LayoutColumn => !!c && typeof c.key === "string" && keys.includes(c.key))
    .map((c) => ({ key: c.key, header: typeof c.header === "string" && c.header ? c.header : null }));
}

export async function getExportLayout(db: DB, ctx: Ctx, target: LayoutTarget): Promise<LayoutColumn[] | null> {
  const row = await db
    .selectFrom("export_layouts")
    .select("columns")
    .where("organization_id", "=", ctx.organizationId)
    .where("target", "=", target)
    .executeTakeFirst();
  if (!row) return null;
  const columns = parseColumns(row.columns, target);
  return columns.length ? columns : null;
}

/** Which targets have a layout of the organisation's (for the buttons). */
export async function exportLayoutTargets(db: DB, ctx: Ctx): Promise<LayoutTarget[]> {
  const rows = await db
    .selectFrom("export_layouts")
    .select("target")
    .where("organization_id", "=", ctx.organizationId)
    .execute();
  return rows.map((r) => r.target).filter((t): t is LayoutTarget => t in LAYOUT_TARGETS);
}

export async function saveExportLayout(
  db: DB,
  ctx: Ctx & { userId: number | null },
  target: LayoutTarget,
  columns: LayoutColumn[],
) {
  const json = JSON.stringify(columns);
  await db
    .insertInto("export_layouts")
    .values({ organization_id: ctx.organizationId, target, columns: json, updated_by: ctx.userId })
    .onDuplicateKeyUpdate({ columns: json, updated_by: ctx.userId })
    .execute();
}

export async function deleteExportLayout(db: DB, ctx: Ctx, target: LayoutTarget) {
  await db
    .deleteFrom("export_layouts")
    .where("organization_id", "=", ctx.organizationId)
    .where("target", "=", target)
    .execute();
}
