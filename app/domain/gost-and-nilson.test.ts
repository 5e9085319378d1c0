import { describe, expect, it } from 'vitest';
import { nilsonVolumeM3 } from './estonian-nilson';
import { GOST_2708_75_CELLS, gostApproximateVolume, gostDiameterClassCm, gostVolume } from './gost-2708-75-table';
import { logVolume } from './log-volume';

describe('GOST 2708-75', () => {
  it('diameter classes per GOST 2292-88: 1 cm below 14 (half up), even cm from 14 (odd rounds up)', () => {
    expect(gostDiameterClassCm(12.4)).toBe(12);
    expect(gostDiameterClassCm(12.5)).toBe(13);
    expect(gostDiameterClassCm(13.6)).toBe(14);
    expect(gostDiameterClassCm(20.9)).toBe(20);
    expect(gostDiameterClassCm(21.0)).toBe(22);
    expect(gostDiameterClassCm(21.9)).toBe(22);
  });
  // Table cells as widely reproduced from GOST 2708-75 (6.0 m and 4.0 m columns); see the module's
  // honesty note: confirm against the printed standard.
  it.each([
    [20, 6, 0.23],
    [30, 6, 0.52],
    [40, 6, 0.9],
    [14, 6, 0.12],
    [20, 4, 0.147],
    [24, 4, 0.21],
  ])('%i cm x %i m = %f m^3 from the table', (d, l, v) => {
    expect(gostVolume(d, l)).toEqual({ value: v, approximate: false, diameterClassCm: d, lengthDm: l * 10 });
  });
  it('looks up by class and 0.1 m length: 20.9 cm x 6.05 m is the 20 cm / 6.0 m cell', () => {
    expect(logVolume('gost_2708_75', { topDiameterCm: 20.9, lengthM: 6.05 })).toEqual({ value: 0.23, unit: 'm^3' });
  });
  it('flags approximations outside the embedded cells and stays within 2.5 % of every cell', () => {
    const r = logVolume('gost_2708_75', { topDiameterCm: 20, lengthM: 5 });
    expect(r.approximate).toBe(true);
    expect(r.value).toBe(0.191); // taper 0.82 cm/m: mid 22.05 cm, pi/4 x 5 x 0.2205^2 = 0.19093
    for (const [dm, row] of GOST_2708_75_CELLS) {
      for (const [d, v] of row) expect(Math.abs(gostApproximateVolume(d, dm / 10) / v - 1)).toBeLessThan(0.025);
    }
  });
  it('is 0 under the 3 cm class', () => {
    expect(gostVolume(2, 4).value).toBe(0);
  });
});

describe('Estonian Nilson formula: V = (d^2 L (a1 + a2 L) + a3 L^2) / 10 000, L in dm', () => {
  // Coefficients from Timbeter help "Nilson formula" and kylmalate.ee "Palgi mahu määramine".
  it('pine 20 cm x 4 m: (400 x 40 x (0.0799 + 0.00584) + 0.0411 x 1600) / 1e4 = 0.14376', () => {
    expect(nilsonVolumeM3(20, 4, 'pine')).toBeCloseTo(0.14376, 10);
  });
  it('spruce 20 cm x 4 m = 0.146144', () => {
    expect(nilsonVolumeM3(20, 4, 'spruce')).toBeCloseTo(0.1461436, 6);
  });
  it('birch and other broadleaves share coefficients: 30 cm x 3 m', () => {
    // 900 x 30 x (0.0783 + 0.00708) + 0.045 x 900 = 2305.26 + 40.5 -> 0.234576
    expect(nilsonVolumeM3(30, 3, 'birch')).toBeCloseTo(0.234576, 9);
    expect(nilsonVolumeM3(30, 3, 'broadleaf')).toBe(nilsonVolumeM3(30, 3, 'birch'));
  });
  it('generic conifers: 25 cm x 5.1 m', () => {
    // 625 x 51 x (0.08 + 0.007854) + 0.0453 x 2601 = 2800.34625 + 117.8253 -> 0.291817155
    expect(nilsonVolumeM3(25, 5.1, 'conifer')).toBeCloseTo(0.291817155, 9);
  });
  it('through logVolume with species', () => {
    expect(logVolume('estonian_nilson', { topDiameterCm: 20, lengthM: 4, species: 'pine' }).value).toBeCloseTo(0.14376, 10);
  });
});
