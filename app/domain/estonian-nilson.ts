/**
 * Estonian log volume formula by Prof. Artur Nilson (1994; spruce coefficients revised 2000),
 * used for Estonian round-timber volume tables (Eesti kooreta ümarpuidu mahutabel):
 *
 *   V [m^3] = (d^2 x L x (a1 + a2 x L) + a3 x L^2) / 10 000
 *
 * with d the top (small-end) diameter in cm (under or over bark per the parties' agreement),
 * L the exact log length in DECIMETRES, and species coefficients below.
 * Sources: Timbeter help "Nilson formula"; kylmalate.ee "Palgi mahu määramine" (same table).
 * No rounding is applied to d or L (the sources use the exact length); the volume is not rounded.
 */

export type NilsonSpecies = "pine" | "spruce" | "birch" | "broadleaf" | "conifer";

export interface NilsonCoefficients {
  a1: number;
  a2: number;
  a3: number;
}

export const NILSON_COEFFICIENTS: Readonly<Record<NilsonSpecies, NilsonCoefficients>> = {
  pine: { a1: 0.0799, a2: 0.000146, a3: 0.0411 }, // mänd
  spruce: { a1: 0.07995, a2: 0.00016105, a3: 0.04948 }, // kuusk (2000 revision)
  birch: { a1: 0.0783, a2: 0.000236, a3: 0.045 }, // kask, also for all other broadleaves
  broadleaf: { a1: 0.0783, a2: 0.000236, a3: 0.045 },
  conifer: { a1: 0.08, a2: 0.000154, a3: 0.0453 }, // okaspuud: any conifer, pine or spruce
};

export function nilsonVolumeM3(topDiameterCm: number, lengthM: number, species: NilsonSpecies): number {
  const c = NILSON_COEFFICIENTS[species];
  const l = lengthM * 10;
  return (topDiameterCm * topDiameterCm * l * (c.a1 + c.a2 * l) + c.a3 * l * l) / 10000;
}
