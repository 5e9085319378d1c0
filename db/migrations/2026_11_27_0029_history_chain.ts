import { createHash } from "node:crypto";
import type { Kysely } from "kysely";

// The history's hash chain (docs/decisions/024-trust.md): each row of a measurement's history
// carries the SHA-256 of its content and of the previous row's hash, so a row edited or removed
// behind the app's back breaks every later hash. Rows written before this migration are chained
// here, in id order, by the same rule as app/models/measurement-history.server.ts (historyHash).

type Row = {
  id: number;
  organization_id: number;
  kind: string;
  measurement_id: number;
  action: string;
  at: Date;
  volume_before: number | null;
  volume_after: number | null;
  changes: unknown;
};

// A copy of historyHash: a migration does not import the app, and this one must never change.
function hashOf(prev: string | null, r: Row) {
  const changes = typeof r.changes === "string" ? r.changes : JSON.stringify(r.changes);
  return createHash("sha256")
    .update(
      [
        prev ?? "",
        r.organization_id,
        r.kind,
        r.measurement_id,
        r.action,
        new Date(r.at).toISOString(),
        r.volume_before ?? "",
        r.volume_after ?? "",
        changes,
      ].join("\n"),
    )
    .digest("hex");
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("measurement_history")
    .addColumn("prev_hash", "char(64)")
    .addColumn("hash", "char(64)")
    .execute();
  const last = new Map<string, string>();
  for (let after = 0; ;) {
    const rows = (await db
      .selectFrom("measurement_history")
      .selectAll()
      .where("id", ">", after)
      .orderBy("id")
      .limit(1000)
      .execute()) as Row[];
    if (!rows.length) break;
    for (const r of rows) {
      const key = `${r.organization_id}:${r.kind}:${r.measurement_id}`;
      const prev = last.get(key) ?? null;
      const hash = hashOf(prev, r);
      await db.updateTable("measurement_history").set({ prev_hash: prev, hash }).where("id", "=", r.id).execute();
      last.set(key, hash);
    }
    after = Number(rows[rows.length - 1].id);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("measurement_history").dropColumn("hash").dropColumn("prev_hash").execute();
}
