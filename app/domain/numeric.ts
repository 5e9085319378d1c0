/**
 * Small numeric helpers shared by the domain modules.
 *
 * Why an epsilon: inputs arrive as binary doubles converted from decimal units
 * (20.32 cm / 2.54 = 7.999999999999999 in floating point), and standards that
 * "drop fractions" must not lose a whole unit to representation error. 1e-9 is
 * far below any measurement resolution used here (0.1 mm) and far above the
 * relative error of a few float operations.
 */
export const EPS = 1e-9;

/** Floor that treats values within EPS below an integer as that integer. */
export function floorEps(x: number): number {
  return Math.floor(x + EPS);
}

/** Floor to a multiple of `step`, robust to representation error. */
export function floorToStep(x: number, step: number): number {
  return floorEps(x / step) * step;
}

/**
 * Round half away from zero at `decimals` places on the number's decimal value: a relative nudge
 * of 1e-12 (far above float error, far below any displayed digit) makes 1.005 -> 1.01 and
 * 0.62465 -> 0.6247, which Math.round(1.005 * 100) / 100 gets wrong. Dividing the rounded integer
 * by an exact power of ten returns the double nearest to the decimal result.
 */
export function roundHalfUp(value: number, decimals = 0): number {
  if (!Number.isFinite(value) || value === 0) return value === 0 ? 0 : value;
  const abs = Math.abs(value);
  const rounded =
    decimals >= 0
      ? Math.floor(abs * 10 ** decimals * (1 + 1e-12) + 0.5) / 10 ** decimals
      : Math.floor((abs / 10 ** -decimals) * (1 + 1e-12) + 0.5) * 10 ** -decimals;
  return rounded === 0 ? 0 : value < 0 ? -rounded : rounded;
}

/** Round to `digits` significant figures, half away from zero. */
export function roundSignificant(value: number, digits: number): number {
  if (value === 0 || !Number.isFinite(value)) return value;
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  return roundHalfUp(value, digits - 1 - magnitude);
}
