import type { DB } from "~/utils/db.server";
import { listTimberLookups } from "./timber-lookups.server";
import type { TFunction } from "i18next";

// The rows of the wood-yard exports of one storage: its live (not deleted) timber measurements
// with their kept logs, in id order, batch by batch so memory stays flat however big the yard.
// The numbers are made by app/domain (timberSummary / classifyLog), as the detail screen makes them.

type Org = { organizationId: number };

export interface WoodYardMeasurement {
  id: number;
  taken_at: Date;
  measured_at: Date | null;
  log_length: number | null;
  volume_formula: string;
  coefficient: number | null;
  wood_type_id: number | null;
  logs: Array<{
    id: number;
    d: number;
    v: number;
    is_deleted: boolean;
    cull_id: number | null;
    assortment_id: number | null;
  }>;
}

/** The organisation's lookups the wood-yard exports name things with (species translated with `t`). */
export async function woodYardLookups(db: DB, org: Org, t?: TFunction) {
  return listTimberLookups(db, org, t);
}

/** How many live measurements and kept logs the storage has. */
export async function countWoodYard(db: DB, org: Org, storageId: number) {
  const row = await db
    .selectFrom("measurements")
    .select((eb) => [eb.fn.countAll<number>().as("measurements"), eb.fn.sum<number>("logs_count").as("logs")])
    .where("organization_id", "=", org.organizationId)
    .where("storage_id", "=", storageId)
    .where("deleted_at", "is", null)
    .executeTakeFirstOrThrow();
  return { measurements: Number(row.measurements), logs: Number(row.logs ?? 0) };
}

/** The storage's live measurements with their kept logs, in id order, 500 measurements at a time. */
export async function* streamWoodYard(db: DB, org: Org, storageId: number): AsyncGenerator<WoodYardMeasurement> {
  let after = 0;
  for (;;) {
    const measurements = await db
      .selectFrom("measurements")
      .select(["id", "taken_at", "measured_at", "log_length", "volume_formula", "coefficient", "wood_type_id"])
      .where("organization_id", "=", org.organizationId)
      .where("storage_id", "=", storageId)
      .where("deleted_at", "is", null)
      .where("id", ">", after)
      .orderBy("id")
      .limit(500)
      .execute();
    if (measurements.length === 0) return;
    const logs = await db
      .selectFrom("logs")
      .select(["id", "measurement_id", "d", "v", "is_deleted", "cull_id", "assortment_id"])
      .where("organization_id", "=", org.organizationId)
      .where(
        "measurement_id",
        "in",
        measurements.map((m) => m.id),
      )
      .where("is_deleted", "=", false)
      .orderBy("measurement_id")
      .orderBy("id")
      .execute();
    const byMeasurement = new Map<number, WoodYardMeasurement["logs"]>();
    for (const l of logs) {
      let list = byMeasurement.get(l.measurement_id);
      if (!list) byMeasurement.set(l.measurement_id, (list = []));
      list.push(l);
    }
    for (const m of measurements) yield { ...m, logs: byMeasurement.get(m.id) ?? [] };
    after = measurements[measurements.length - 1].id;
  }
}
