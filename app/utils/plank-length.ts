import { convertLength, type LengthUnit } from "~/domain";

// Plank lengths are stored in millimetres (the product's size) and shown in the user's
// lumber_plank_unit (mm unless set), on the detail page and the lumber dashboard alike.

export const PLANK_UNITS: readonly LengthUnit[] = ["mm", "cm", "m", "in", "ft"];
const PLANK_DECIMALS: Record<LengthUnit, number> = { mm: 0, cm: 1, m: 3, in: 2, ft: 2 };

/** The user's plank unit, or mm when it is not one the screens know. */
export function plankUnitOf(raw: string | null | undefined): LengthUnit {
  return (PLANK_UNITS as readonly string[]).includes(raw ?? "") ? (raw as LengthUnit) : "mm";
}

/** A plank size in mm, in the unit with its symbol, in the locale's number format. */
export function formatPlankLength(mm: number, unit: LengthUnit, locale: string) {
  const n = new Intl.NumberFormat(locale, { maximumFractionDigits: PLANK_DECIMALS[unit] }).format(
    convertLength(mm, "mm", unit),
  );
  return `${n} ${unit}`;
}
