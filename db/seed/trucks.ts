import { sql } from "kysely";
import { addCheckpoints } from "~/models/truck-route.server";
import { insertTruckMeasurement } from "~/models/truck.server";
import type { DB } from "~/utils/db.server";

// The demo organisation's trucks: four trucks bringing wood to its first two storages over the
// last month (loads from 1.8 to 2.6 m high on 2.45 m wide beds, 3 to 5 m logs), each with the
// route its phone drove; the three newest are still on the road (unfinished routes), so the
// dashboard, the detail's route map and the live map show data. The live map is the
// truck_detection feature's: the demo organisation gets it. Run again, it adds nothing.

const PLATES = ["123 ABC", "456 BCD", "789 CDE", "321 DEF"];
// Roads into Tartu from the north-west, north-east, south and west (start, end).
const ROADS: Array<[[number, number], [number, number]]> = [
  [
    [58.7, 26.1],
    [58.385, 26.72],
  ],
  [
    [58.75, 27.2],
    [58.39, 26.74],
  ],
  [
    [58.05, 26.5],
    [58.37, 26.71],
  ],
  [
    [58.35, 25.6],
    [58.38, 26.7],
  ],
];

export async function seedTrucks(db: DB, organizationId: number, opts: { log?: (s: string) => void; now?: Date } = {}) {
  const log = opts.log ?? (() => {});
  const now = opts.now ?? new Date();
  const any = await db
    .selectFrom("truck_measurements")
    .select("id")
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
  if (any) return 0;
  const storages = await db
    .selectFrom("storages")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("deleted_at", "is", null)
    .orderBy("id")
    .limit(2)
    .execute();
  if (!storages.length) return 0;
  const ctx = { organizationId };
  const count = 12;
  for (let i = 0; i < count; i++) {
    // Oldest first; the last three are on the road now.
    const live = i >= count - 3;
    const takenAt = live
      ? new Date(now.getTime() - (count - i) * 20 * 60_000)
      : new Date(now.getTime() - (30 - i * 2.5) * 86_400_000);
    const beds = i % 3 === 0 ? 1 : 2;
    const loads = Array.from({ length: beds }, (_, b) => ({
      height: Number((1.8 + ((i * 7 + b * 3) % 9) / 10).toFixed(2)),
      load_width: 2.45,
      log_length: [3, 4, 5][(i + b) % 3],
      coefficient: [0.62, 0.65, 0.68, 0.7][(i + b) % 4],
      load_bed_name: b === 0 ? "Truck" : "Trailer",
    }));
    const road = ROADS[i % ROADS.length];
    const id = await insertTruckMeasurement(db, ctx, {
      storage_id: storages[i % storages.length].id,
      license_plate: PLATES[i % PLATES.length],
      taken_at: takenAt,
      measured_at: takenAt,
      shipment_number: `SH-${2026_0100 + i}`,
      measurement_type_id: 1,
      weight: Math.round(18_000 + i * 750),
      weight_density: 1.05,
      latitude: road[1][0],
      longitude: road[1][1],
      loads,
    });
    const startedAt = new Date(takenAt.getTime() - 90 * 60_000);
    const route = await db
      .insertInto("truck_routes")
      .values({
        organization_id: organizationId,
        truck_measurement_id: id,
        client_id: `demo-route-${id}`,
        started_at: startedAt,
        finished_at: live ? null : new Date(takenAt.getTime() + 5 * 60_000),
      })
      .executeTakeFirstOrThrow();
    const routeId = Number(route.insertId);
    // Checkpoints every 3 minutes along the road; a live truck is part of the way there.
    const steps = live ? 12 + (i % 3) * 6 : 30;
    await addCheckpoints(
      db,
      ctx,
      routeId,
      Array.from({ length: steps }, (_, s) => {
        const f = s / 30;
        return {
          client_id: `demo-${routeId}-${s}`,
          latitude: road[0][0] + (road[1][0] - road[0][0]) * f + Math.sin(s / 3) * 0.004,
          longitude: road[0][1] + (road[1][1] - road[0][1]) * f,
          recorded_at: new Date(startedAt.getTime() + s * 3 * 60_000),
          speed: 60 + (s % 5) * 4,
          heading: null,
        };
      }),
    );
  }
  // The live truck map is the truck_detection feature's.
  await sql`UPDATE organizations SET features = JSON_ARRAY_APPEND(features, '$', 'truck_detection')
    WHERE id = ${organizationId} AND NOT JSON_CONTAINS(features, '"truck_detection"')`.execute(db);
  log(`added ${count} truck measurements with routes`);
  return count;
}
