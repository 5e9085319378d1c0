/**
 * Unit conversions for volumes, lengths, masses and densities.
 *
 * Volume units are keyed as the spec stores them: 'm^3', 'ft^3', 'fbm', 'pmt', 'stere'.
 * Hoppus units are added because the hoppus formula reports in them.
 *
 * All factors are exact by definition unless noted:
 * - inch = 0.0254 m and foot = 0.3048 m (International Yard and Pound Agreement, 1959).
 * - ft^3 = 0.3048^3 m^3 = 0.028316846592 m^3.
 * - fbm (board foot measure) = 1 ft x 1 ft x 1 in = 144 in^3 = 0.002359737216 m^3. This is
 *   the solid-measure board foot; board feet produced by log rules (Doyle, Scribner,
 *   International) estimate sawn yield and are NOT a solid volume, so converting a
 *   log-rule tally to m^3 with this factor does not give the log's wood volume.
 * - pmt: see PMT_M3 below.
 * - stere: one cubic metre of stacked (piled) wood, bark and air included. Its solid
 *   content depends on the pile, so conversion takes a solid-content factor
 *   (solid m^3 per stere, 0 < f <= 1). The default of 1 converts the number unchanged
 *   (stacked m^3 as m^3); callers pass the measurement's stacking coefficient.
 * - hoppus: the quarter-girth measure (g/4)^2 x L equals pi/4 of the true volume of a
 *   cylinder, so 1 hoppus m^3 = 4/pi true m^3 (1.2732...), and 1 hoppus ft^3 = 4/pi ft^3.
 */

export type VolumeUnit = "m^3" | "ft^3" | "fbm" | "pmt" | "stere";
export type AnyVolumeUnit = VolumeUnit | "hoppus_m^3" | "hoppus_ft^3";

export const VOLUME_UNITS = ["m^3", "ft^3", "stere", "fbm", "pmt"] as const satisfies readonly VolumeUnit[];
/** The units a price or an assortment is per: solid volumes only (a stere is stacked wood). */
export const PRICE_VOLUME_UNITS = ["m^3", "ft^3", "fbm", "pmt"] as const satisfies readonly VolumeUnit[];
export type PriceVolumeUnit = (typeof PRICE_VOLUME_UNITS)[number];

export const M_PER_IN = 0.0254;
export const M_PER_FT = 0.3048;
export const CM_PER_IN = 2.54;
export const FT3_M3 = 0.028316846592;
export const FBM_M3 = 0.002359737216;

/**
 * PMT = "pulgada maderera tica" (Costa Rican timber inch), the unit Costa Rican sawmills and
 * log buyers trade in: a piece 1 inch x 1 inch in section and 4 varas long.
 * Sources: Tico Times, "Measuring Lumber in C.R.: Varas and Pulgadas" (2010) (standard length
 * 4 varas); UTN Costa Rica, "Ecuación práctica para cubicar madera" (PMT still in use
 * although the SI law makes it formally illegal). The Costa Rican vara is 0.8359 m
 * (Castilian vara; the Tico Times rounds it to 0.8367 m via the manzana, a 0.1 % difference).
 * 1 PMT = 0.0254^2 x 4 x 0.8359 m^3 = 0.002157156... m^3, so 1 m^3 = 463.57 PMT.
 * Decision: PMT is a volume unit (the spec lists it among volume units and assortment price
 * units), not the "per mille ton" of shipping. If a customer's contract uses another vara,
 * only VARA_M changes.
 */
export const VARA_M = 0.8359;
export const PMT_M3 = M_PER_IN * M_PER_IN * 4 * VARA_M;

export const HOPPUS_TO_TRUE = 4 / Math.PI;

export class UnitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnitError";
  }
}

export interface VolumeConversionOptions {
  /** Solid m^3 per stere (stacking coefficient), 0 < f <= 1. Default 1. */
  stereSolidFactor?: number;
}

/** m^3 of (true, solid) wood in one unit. */
function m3PerUnit(unit: AnyVolumeUnit, stereSolidFactor: number): number {
  switch (unit) {
    case "m^3":
      return 1;
    case "ft^3":
      return FT3_M3;
    case "fbm":
      return FBM_M3;
    case "pmt":
      return PMT_M3;
    case "stere":
      return stereSolidFactor;
    case "hoppus_m^3":
      return HOPPUS_TO_TRUE;
    case "hoppus_ft^3":
      return HOPPUS_TO_TRUE * FT3_M3;
    default:
      throw new UnitError(`Unknown volume unit: ${String(unit)}`);
  }
}

export function isVolumeUnit(value: unknown): value is VolumeUnit {
  return typeof value === "string" && (VOLUME_UNITS as readonly string[]).includes(value);
}

export function convertVolume(
  value: number,
  from: AnyVolumeUnit,
  to: AnyVolumeUnit,
  options: VolumeConversionOptions = {},
): number {
  const factor = options.stereSolidFactor ?? 1;
  if (!(factor > 0 && factor <= 1)) {
    throw new UnitError(`stereSolidFactor must be in (0, 1], got ${factor}`);
  }
  if (from === to) return value;
  return (value * m3PerUnit(from, factor)) / m3PerUnit(to, factor);
}

// Lengths ------------------------------------------------------------------

export type LengthUnit = "mm" | "cm" | "m" | "in" | "ft";

const M_PER_LENGTH: Record<LengthUnit, number> = {
  mm: 0.001,
  cm: 0.01,
  m: 1,
  in: M_PER_IN,
  ft: M_PER_FT,
};

export function convertLength(value: number, from: LengthUnit, to: LengthUnit): number {
  if (from === to) return value;
  const mFrom = M_PER_LENGTH[from];
  const mTo = M_PER_LENGTH[to];
  if (mFrom === undefined || mTo === undefined) {
    throw new UnitError(`Unknown length unit: ${mFrom === undefined ? from : to}`);
  }
  // Divide exact integer ratios where possible so 20.32 cm -> 8 in stays as exact as floats allow.
  if (from === "cm" && to === "in") return value / CM_PER_IN;
  if (from === "in" && to === "cm") return value * CM_PER_IN;
  if (from === "m" && to === "ft") return value / M_PER_FT;
  if (from === "ft" && to === "m") return value * M_PER_FT;
  return (value * mFrom) / mTo;
}

export const cmToIn = (cm: number): number => cm / CM_PER_IN;
export const inToCm = (inches: number): number => inches * CM_PER_IN;
export const mToFt = (m: number): number => m / M_PER_FT;
export const ftToM = (ft: number): number => ft * M_PER_FT;

// Mass ---------------------------------------------------------------------

export type MassUnit = "kg" | "t" | "lb";
const KG_PER_MASS: Record<MassUnit, number> = { kg: 1, t: 1000, lb: 0.45359237 };

export function convertMass(value: number, from: MassUnit, to: MassUnit): number {
  if (from === to) return value;
  return (value * KG_PER_MASS[from]) / KG_PER_MASS[to];
}

export const kgToT = (kg: number): number => kg / 1000;
export const tToKg = (t: number): number => t * 1000;

// Density ------------------------------------------------------------------

/**
 * 'm^3/t' is the inverse of density (volume per tonne), which pulp mills use to turn
 * weighed loads into volume; it is converted through kg/m^3 like the others.
 */
export type DensityUnit = "kg/m^3" | "t/m^3" | "m^3/t" | "lb/ft^3";

function toKgPerM3(value: number, unit: DensityUnit): number {
  switch (unit) {
    case "kg/m^3":
      return value;
    case "t/m^3":
      return value * 1000;
    case "m^3/t":
      if (value <= 0) throw new UnitError("m^3/t must be positive");
      return 1000 / value;
    case "lb/ft^3":
      return (value * KG_PER_MASS.lb) / FT3_M3;
    default:
      throw new UnitError(`Unknown density unit: ${String(unit)}`);
  }
}

export function convertDensity(value: number, from: DensityUnit, to: DensityUnit): number {
  if (from === to) return value;
  const kgm3 = toKgPerM3(value, from);
  switch (to) {
    case "kg/m^3":
      return kgm3;
    case "t/m^3":
      return kgm3 / 1000;
    case "m^3/t":
      if (kgm3 <= 0) throw new UnitError("density must be positive");
      return 1000 / kgm3;
    case "lb/ft^3":
      return (kgm3 * FT3_M3) / KG_PER_MASS.lb;
    default:
      throw new UnitError(`Unknown density unit: ${String(to)}`);
  }
}

/** Mass in kg of a solid volume in m^3 at a density in kg/m^3. */
export function massKgFromVolume(volumeM3: number, densityKgPerM3: number): number {
  return volumeM3 * densityKgPerM3;
}

/** Solid volume in m^3 of a mass in kg at a density in kg/m^3. */
export function volumeM3FromMass(massKg: number, densityKgPerM3: number): number {
  if (!(densityKgPerM3 > 0)) throw new UnitError("density must be positive");
  return massKg / densityKgPerM3;
}
