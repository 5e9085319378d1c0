import { canEditIn } from "~/models/measurement-kind.server";
import { screenPhotoUrl } from "~/models/measurement-photo.server";
import { getCmpcTruckRow, getTruckDiameterLogs, getTruckDiameterRow } from "~/models/shipment.server";
import { listTimberLookups } from "~/models/timber-lookups.server";
import { speciesOf } from "~/models/timber.server";
import { getTruckLoads } from "~/models/truck.server";
import type { AuthContext } from "~/utils/auth-context";
import { db } from "~/utils/db.server";
import { notFound } from "~/utils/errors";
import { i18nServer } from "~/utils/i18n.server";
import { CMPC_METHODS, type CmpcMethod } from "~/utils/schemas/shipment";

type DetailLog = {
  id: number;
  x: number;
  y: number;
  r: number;
  d: number;
  is_deleted: boolean;
  modified_at: Date | null;
  cull_id: null;
  assortment_id: null;
};

/** /measurements/cmpc/{method}/{id}: the measurement, what the editor loads, and whether it may be saved. */
export async function loadCmpcDetail(ctx: AuthContext, methodParam: string | undefined, id: number) {
  if (!CMPC_METHODS.includes(methodParam as CmpcMethod)) notFound();
  const method = methodParam as CmpcMethod;
  const lookups = await listTimberLookups(db(), ctx, await i18nServer.getFixedT(ctx.user.locale, "lookups"));
  const woodTypeName = (id: number | null) =>
    id === null ? null : (lookups.woodTypes.find((w) => w.id === id)?.name ?? String(id));
  const formulas = lookups.formulas.map((f) => f.key);
  if (method === "truck_diameter") {
    const m = await getTruckDiameterRow(db(), ctx, id);
    if (!m) notFound();
    const logs = await getTruckDiameterLogs(db(), ctx, id);
    return {
      method,
      formulas,
      readOnly: m.inventory_id !== null || !(await canEditIn(db(), ctx, m)),
      locked: m.inventory_id !== null,
      measurement: {
        id: m.id,
        shipmentId: m.shipment_id,
        shipment: m.shipment,
        takenAt: m.taken_at,
        typeId: m.measurement_type_id,
        species: woodTypeName(m.wood_type_id),
        speciesKey: speciesOf(m.wood_type_id) ?? null,
        logsCount: m.logs_count,
        logLength: m.log_length,
        volume: m.volume,
        formula: m.volume_formula,
        plate: m.trailer_license_plate,
        bed: m.load_bed_name,
        detector: m.detector,
        photo: screenPhotoUrl("truck_diameter", m),
        photoWidth: m.photo_width,
        photoHeight: m.photo_height,
      },
      logs: logs.map((l): DetailLog => ({
        id: l.id,
        x: l.x,
        y: l.y,
        r: l.r,
        d: l.d,
        is_deleted: l.is_deleted,
        modified_at: l.modified_at,
        cull_id: null,
        assortment_id: null,
      })),
      references: m.reference_lines ?? [],
    };
  }
  const m = await getCmpcTruckRow(db(), ctx, id);
  if (!m) notFound();
  const loads = await getTruckLoads(db(), ctx, id);
  const distinct = <T>(v: T[]) => [...new Set(v.filter((x) => x !== null && x !== undefined))];
  return {
    method,
    formulas,
    readOnly: m.inventory_id !== null || !(await canEditIn(db(), ctx, m)),
    locked: m.inventory_id !== null,
    measurement: {
      id: m.id,
      shipmentId: m.shipment_id,
      shipment: m.shipment,
      takenAt: m.taken_at,
      typeId: m.measurement_type_id,
      species: distinct(loads.map((l) => woodTypeName(l.wood_type_id))).join(", ") || null,
      speciesKey: null,
      logsCount: m.load_count,
      logLength: loads[0]?.log_length ?? null,
      volume: m.volume,
      formula: m.volume_formula ?? "cylinder",
      plate: m.license_plate,
      bed: distinct(loads.map((l) => l.load_bed_name)).join(", ") || null,
      detector: null,
      photo: screenPhotoUrl("truck", m),
      photoWidth: m.photo_width,
      photoHeight: m.photo_height,
    },
    logs: [] as DetailLog[],
    references: m.reference_lines ?? [],
  };
}
