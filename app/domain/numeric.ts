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
 * Round half away from zero at `decimals` places, using the decimal string of
 * the number (1.005 -> 1.01, which Math.round(1.005 * 100) / 100 gets wrong).
 */
export function roundHalfUp(value: number, decimals = 0): number {
  if (!Number.isFinite(value)) return value;
  const sign = value < 0 ? -1 : 1;
  const abs = Math.abs(value);
  const text = String(abs);
  const shifted = text.includes('e') ? abs * 10 ** decimals : Number(`${text}e${decimals}`);
  // Tiny relative epsilon absorbs results like 0.62465 computed as 0.6246499999999999.
  const rounded = Math.floor(shifted + 0.5 + shifted * 1e-12);
  const back = String(rounded).includes('e')
    ? rounded / 10 ** decimals
    : Number(`${rounded}e${-decimals}`);
  return back === 0 ? 0 : sign * back;
}

/** Round to `digits` significant figures, half away from zero. */
export function roundSignificant(value: number, digits: number): number {
  if (value === 0 || !Number.isFinite(value)) return value;
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  return roundHalfUp(value, digits - 1 - magnitude);
}
