import { DomainInputError } from "./errors";
import {
  LOG_FORMULAS,
  logVolume,
  TOP_DIAMETER_FORMULAS,
  type LogFormula,
  type LogVolumeUnit,
  type Species,
} from "./log-volume";
import { formulaVolumeToCubicMetres } from "./timber-measurement";

// Every formula side by side (docs/decisions/024-trust.md): a photographed measurement's logs
// (top diameters and one length) computed under every formula a photo of the log ends can give,
// the board-foot rules among them, each total also in m³ so they compare, and its difference to
// the measurement's own formula. Nothing here is stored: the detail page computes it on view.

export interface FormulaComparisonRow {
  formula: LogFormula;
  /** The formula's native unit: m³, fbm (board-foot rules) or hoppus m³. */
  unit: LogVolumeUnit;
  boardFoot: boolean;
  /** Sum of the live logs' volumes in the native unit; null when the formula cannot compute (Nilson without a species). */
  total: number | null;
  /** The same total in m³ (board feet by the domain's nominal factor). */
  totalM3: number | null;
  /** totalM3 minus the own formula's totalM3 (0 for the own formula). */
  differenceM3: number | null;
  /** differenceM3 relative to the own formula's m³, in percent. */
  differencePercent: number | null;
  own: boolean;
}

export function compareFormulas(input: {
  /** The live logs' top diameters, cm. */
  diametersCm: readonly number[];
  lengthM: number;
  species?: Species;
  ownFormula: string;
}): FormulaComparisonRow[] {
  const rows = TOP_DIAMETER_FORMULAS.map((formula) => {
    let total: number | null = 0;
    try {
      for (const d of input.diametersCm)
        total += logVolume(formula, { topDiameterCm: d, lengthM: input.lengthM, species: input.species }).value;
    } catch (error) {
      if (!(error instanceof DomainInputError)) throw error;
      total = null;
    }
    return {
      formula,
      unit: LOG_FORMULAS[formula].unit,
      boardFoot: LOG_FORMULAS[formula].kind === "board_foot",
      total,
      totalM3: total === null ? null : formulaVolumeToCubicMetres(total, formula),
      own: formula === input.ownFormula,
    };
  });
  const own = rows.find((r) => r.own)?.totalM3 ?? null;
  return rows.map((r) => ({
    ...r,
    differenceM3: r.totalM3 === null || own === null ? null : r.totalM3 - own,
    differencePercent: r.totalM3 === null || own === null || own === 0 ? null : ((r.totalM3 - own) / own) * 100,
  }));
}
