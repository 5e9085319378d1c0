import { computeContainerMeasurement } from "~/domain/container";
import { compareFormulas, type FormulaComparisonRow } from "~/domain/formula-comparison";
import { truckDiameterFigures } from "~/domain/shipment";
import {
  getContainerLogs,
  getContainerMeasurementRow,
  getContainerReferences,
} from "~/models/container-measurement.server";
import { listHistory, verifyHistoryChain } from "~/models/measurement-history.server";
import { getPhotoFingerprint, type MeasurementKind } from "~/models/measurement-kind.server";
import { getTruckDiameterLogs, getTruckDiameterRow } from "~/models/shipment.server";
import { getMeasurementLogs, getMeasurementRow, speciesOf } from "~/models/timber.server";
import { fileStorage } from "~/services/file-storage.server";
import { verifyOriginalPhoto } from "~/services/photos.server";
import type { AuthContext } from "~/utils/auth-context";
import { db } from "~/utils/db.server";

// What every kind's detail page shows as proof (docs/decisions/024-trust.md), on the kind seam:
// the History panel with its hash chain, the original photo's fingerprint, and every formula side
// by side for the kinds that photograph log ends. Both verify actions are GETs of the detail page
// (?verify=1 for the photo, ?verify_history=1 for the chain), so they work without JavaScript.
// The page has checked the measurement is the caller's.

type Ctx = Pick<AuthContext, "organizationId">;

/**
 * Every formula side by side (app/domain/formula-comparison.ts) for a measurement whose logs are
 * photographed top diameters: its kept logs' diameters as the kind itself computes them (timber's
 * stored diameters; a container's and a truck-diameter measurement's from the logs' radii and the
 * reference scale, by the kind's own domain function) and its log length. Empty for the kinds
 * without log ends (lumber, truck), a manual timber measurement, and a measurement that cannot be
 * scaled (no log length, no references).
 */
export async function loadFormulaComparison(
  ctx: Ctx,
  kind: MeasurementKind,
  id: number,
): Promise<FormulaComparisonRow[]> {
  if (kind === "timber") {
    const m = await getMeasurementRow(db(), ctx, id);
    if (!m || m.type === "manual" || !m.log_length) return [];
    const logs = await getMeasurementLogs(db(), ctx, id);
    return compareFormulas({
      diametersCm: logs.filter((l) => !l.is_deleted).map((l) => l.d),
      lengthM: m.log_length,
      species: speciesOf(m.wood_type_id),
      ownFormula: m.volume_formula,
    });
  }
  if (kind === "container") {
    const m = await getContainerMeasurementRow(db(), ctx, id);
    if (!m || !m.log_length) return [];
    const [logs, references] = await Promise.all([
      getContainerLogs(db(), ctx, id),
      getContainerReferences(db(), ctx, id),
    ]);
    if (!references.length) return [];
    const computed = computeContainerMeasurement(
      logs.map((l) => ({ x: l.x, y: l.y, r: l.r, isDeleted: Boolean(l.is_deleted) })),
      { references, logLengthM: m.log_length },
    );
    return compareFormulas({
      diametersCm: computed.logs.filter((l) => !l.isDeleted).map((l) => l.d),
      lengthM: m.log_length,
      species: speciesOf(m.wood_type_id),
      ownFormula: m.volume_formula,
    });
  }
  if (kind === "truck_diameter") {
    const m = await getTruckDiameterRow(db(), ctx, id);
    const references = m?.reference_lines ?? [];
    if (!m || !m.log_length || !references.length) return [];
    const logs = await getTruckDiameterLogs(db(), ctx, id);
    const species = speciesOf(m.wood_type_id);
    const computed = truckDiameterFigures(
      logs.map((l) => ({ x: l.x, y: l.y, r: l.r, isDeleted: l.is_deleted })),
      { references, formula: m.volume_formula, logLengthM: m.log_length, species },
    );
    return compareFormulas({
      diametersCm: computed.logs.filter((l) => !l.isDeleted).map((l) => l.d),
      lengthM: m.log_length,
      species,
      ownFormula: m.volume_formula,
    });
  }
  return [];
}

export async function loadMeasurementTrust(ctx: Ctx, kind: MeasurementKind, id: number, url: URL) {
  const [history, chain, photo, verification, formulas] = await Promise.all([
    listHistory(db(), ctx, kind, id),
    url.searchParams.get("verify_history") === "1" ? verifyHistoryChain(db(), ctx, kind, id) : Promise.resolve(null),
    getPhotoFingerprint(db(), ctx, kind, id),
    url.searchParams.get("verify") === "1"
      ? verifyOriginalPhoto(db(), fileStorage(), ctx, kind, id)
      : Promise.resolve(undefined),
    loadFormulaComparison(ctx, kind, id),
  ]);
  return {
    kind,
    history,
    chain,
    photo: photo ? { sha256: photo.sha256, verification: verification ?? null } : null,
    formulas,
  };
}

export type MeasurementTrustData = Awaited<ReturnType<typeof loadMeasurementTrust>>;
