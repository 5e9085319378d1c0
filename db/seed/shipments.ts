import type { MeasurementKind } from "~/models/measurement-kind.server";
import { findOrCreateShipment, insertTruckDiameterMeasurement } from "~/models/shipment.server";
import { addCheckpoints } from "~/models/truck-route.server";
import { insertTruckMeasurement } from "~/models/truck.server";
import type { FileStorage } from "~/services/file-storage.server";
import { storeOriginalPhoto } from "~/services/photos.server";
import type { DB } from "~/utils/db.server";
import { layoutStack, renderStackJpeg } from "./stack-photo";

// The shipments dashboard's demo (issue 22, docs/decisions/023-shipments.md). The demo
// organisation is flagged for the cmpc mode and gets six shipments into its first storage (the
// mill): each a truck measurement (incoming, its loads' volume) with the route its phone drove,
// and truck-diameter measurements with photos of the log ends at the supplier (outgoing) and at
// the mill (incoming). The routes follow real roads, as points typed in by hand from the map:
// the Tallinn–Tartu highway (E263, Estonian road 2) and road Q-180 from Los Ángeles to
// Nacimiento in Chile's Biobío region, where pulp mills take eucalyptus and pine by truck. The
// newest shipment has no route yet ("No routes"). The trucks seed's shipment numbers become
// shipments too. Run again, it adds nothing.

type EnqueuePhoto = (measurementId: number, kind: MeasurementKind) => Promise<unknown>;

/** Estonian road 2 (E263), Tallinn → Tartu: Ülemiste, Jüri, Kose, Ardu, Mäo, Põltsamaa, Kärevere. */
const E263: Array<[number, number]> = [
  [59.4227, 24.7992],
  [59.3985, 24.8354],
  [59.3553, 24.8913],
  [59.3051, 24.9671],
  [59.2452, 25.0657],
  [59.1903, 25.1626],
  [59.1231, 25.2778],
  [59.0786, 25.3496],
  [59.0127, 25.4419],
  [58.9566, 25.5188],
  [58.9087, 25.5838],
  [58.8471, 25.6756],
  [58.7757, 25.7738],
  [58.6951, 25.9035],
  [58.6312, 26.0115],
  [58.5605, 26.1593],
  [58.4976, 26.3442],
  [58.4459, 26.4958],
  [58.4078, 26.6176],
  [58.3836, 26.7016],
];

/** Road Q-180 (Ruta 180), Los Ángeles → Nacimiento, Biobío, Chile. */
const Q180: Array<[number, number]> = [
  [-37.4697, -72.3537],
  [-37.4721, -72.3812],
  [-37.4768, -72.4183],
  [-37.4812, -72.4551],
  [-37.4846, -72.4926],
  [-37.4889, -72.5302],
  [-37.4931, -72.5684],
  [-37.4977, -72.6061],
  [-37.5012, -72.6398],
  [-37.5031, -72.6733],
];

/** Points every `step` of the way between the typed-in ones, as a phone sending every few minutes would. */
function densify(road: Array<[number, number]>, per: number) {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < road.length - 1; i++)
    for (let s = 0; s < per; s++) {
      const f = s / per;
      out.push([road[i][0] + (road[i + 1][0] - road[i][0]) * f, road[i][1] + (road[i + 1][1] - road[i][1]) * f]);
    }
  out.push(road[road.length - 1]);
  return out;
}

export async function seedShipments(
  db: DB,
  files: FileStorage,
  organizationId: number,
  opts: { enqueuePhoto?: EnqueuePhoto; log?: (s: string) => void; now?: Date } = {},
) {
  const log = opts.log ?? (() => {});
  const now = opts.now ?? new Date();
  const ctx = { organizationId };
  await db.updateTable("organizations").set({ cmpc_enabled: true }).where("id", "=", organizationId).execute();
  // Truck measurements seeded before shipments existed join the shipment of their number.
  const loose = await db
    .selectFrom("truck_measurements")
    .select(["id", "shipment_number"])
    .where("organization_id", "=", organizationId)
    .where("shipment_id", "is", null)
    .where("shipment_number", "is not", null)
    .execute();
  for (const t of loose) {
    const shipmentId = await findOrCreateShipment(db, ctx, t.shipment_number!);
    await db.updateTable("truck_measurements").set({ shipment_id: shipmentId }).where("id", "=", t.id).execute();
  }
  const any = await db
    .selectFrom("truck_diameter_measurements")
    .select("id")
    .where("organization_id", "=", organizationId)
    .executeTakeFirst();
  if (any) return 0;
  const storage = await db
    .selectFrom("storages")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("deleted_at", "is", null)
    .orderBy("id")
    .executeTakeFirst();
  if (!storage) return 0;
  const woodTypes = await db
    .selectFrom("wood_types")
    .select("id")
    .where("organization_id", "is", null)
    .orderBy("id")
    .execute();
  const count = 6;
  for (let i = 0; i < count; i++) {
    const number = `CMPC-${2611 + i}`;
    const arrivedAt = new Date(now.getTime() - (count - i) * 26 * 3600_000);
    const road = i % 2 === 0 ? E263 : Q180;
    const path = densify(road, 3);
    const minutes = i % 2 === 0 ? 150 : 40;
    const startedAt = new Date(arrivedAt.getTime() - minutes * 60_000);
    const truckId = await insertTruckMeasurement(db, ctx, {
      storage_id: storage.id,
      license_plate: ["512 TRK", "GH-KL-21", "733 MTS"][i % 3],
      taken_at: arrivedAt,
      measured_at: arrivedAt,
      shipment_number: number,
      measurement_type_id: 1,
      weight: 24_000 + i * 600,
      weight_density: 1.02,
      latitude: road[road.length - 1][0],
      longitude: road[road.length - 1][1],
      loads: [
        { height: 2.2 + (i % 3) / 10, load_width: 2.45, log_length: 3, coefficient: 0.64, load_bed_name: "Truck" },
        { height: 2.0 + (i % 2) / 10, load_width: 2.45, log_length: 3, coefficient: 0.66, load_bed_name: "Trailer" },
      ],
    });
    // The newest shipment is still waiting for its route.
    if (i < count - 1) {
      const route = await db
        .insertInto("truck_routes")
        .values({
          organization_id: organizationId,
          truck_measurement_id: truckId,
          client_id: `demo-shipment-route-${truckId}`,
          started_at: startedAt,
          finished_at: arrivedAt,
        })
        .executeTakeFirstOrThrow();
      const routeId = Number(route.insertId);
      await addCheckpoints(
        db,
        ctx,
        routeId,
        path.map(([latitude, longitude], s) => ({
          client_id: `demo-${routeId}-${s}`,
          latitude,
          longitude,
          recorded_at: new Date(startedAt.getTime() + ((s * minutes) / path.length) * 60_000),
          speed: 70,
          heading: null,
        })),
      );
    }
    // The log ends photographed at the supplier (outgoing) and again at the mill (incoming).
    for (const [side, type] of [
      [0, 2],
      [1, 1],
    ] as const) {
      const seed = 5000 + i * 10 + side;
      const stack = layoutStack(seed, { minCm: 12, maxCm: 30 });
      const takenAt = side === 0 ? startedAt : arrivedAt;
      const id = await insertTruckDiameterMeasurement(db, ctx, {
        storage_id: storage.id,
        taken_at: takenAt,
        measured_at: takenAt,
        shipment_number: number,
        measurement_type_id: type,
        wood_type_id: woodTypes.length ? woodTypes[(i + side) % Math.min(3, woodTypes.length)].id : null,
        log_length: 3,
        volume_formula: "cylinder",
        trailer_license_plate: ["TR 4410", "JP-88-02", "TR 5127"][i % 3],
        load_bed_name: side === 0 ? "Trailer" : "Truck",
        detector: "log-ends-v3",
        latitude: side === 0 ? road[0][0] : road[road.length - 1][0],
        longitude: side === 0 ? road[0][1] : road[road.length - 1][1],
        logs: stack.logs,
        references: [stack.reference],
      });
      await storeOriginalPhoto(db, files, "truck_diameter", {
        organizationId,
        measurementId: id,
        data: await renderStackJpeg(stack, seed),
        fileName: `truck-logs-${i + 1}-${side}.jpg`,
      });
      await opts.enqueuePhoto?.(id, "truck_diameter");
    }
  }
  log(`added ${count} shipments with truck and truck-diameter measurements, routes on real roads`);
  return count;
}
