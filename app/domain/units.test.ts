import { describe, expect, it } from "vitest";
import {
  FBM_M3,
  PMT_M3,
  UnitError,
  convertDensity,
  convertLength,
  convertMass,
  convertVolume,
  massKgFromVolume,
  volumeM3FromMass,
} from "./units";

describe("convertVolume", () => {
  it("uses exact definitions: ft^3 = 0.3048^3 m^3, board foot = 144 in^3", () => {
    expect(convertVolume(1, "ft^3", "m^3")).toBe(0.028316846592);
    expect(convertVolume(1, "fbm", "m^3")).toBe(0.002359737216);
    expect(convertVolume(12, "fbm", "ft^3")).toBeCloseTo(1, 12);
    expect(convertVolume(1, "m^3", "ft^3")).toBeCloseTo(35.3146667, 6);
    expect(convertVolume(1, "m^3", "fbm")).toBeCloseTo(423.776, 3);
  });
  it("PMT (pulgada maderera tica): 1 in x 1 in x 4 varas of 0.8359 m", () => {
    expect(PMT_M3).toBeCloseTo(0.00215716, 8);
    expect(convertVolume(1, "m^3", "pmt")).toBeCloseTo(463.573, 3);
    expect(convertVolume(1, "pmt", "fbm")).toBeCloseTo(PMT_M3 / FBM_M3, 12);
  });
  it("stere converts with the solid-content factor", () => {
    expect(convertVolume(10, "stere", "m^3")).toBe(10);
    expect(convertVolume(10, "stere", "m^3", { stereSolidFactor: 0.65 })).toBeCloseTo(6.5, 12);
    expect(convertVolume(6.5, "m^3", "stere", { stereSolidFactor: 0.65 })).toBeCloseTo(10, 12);
    expect(() => convertVolume(1, "stere", "m^3", { stereSolidFactor: 0 })).toThrow(UnitError);
    expect(() => convertVolume(1, "stere", "m^3", { stereSolidFactor: 1.2 })).toThrow(UnitError);
  });
  it("hoppus measure is pi/4 of true volume", () => {
    expect(convertVolume(1, "hoppus_m^3", "m^3")).toBeCloseTo(1.2732395, 7);
    expect(convertVolume(1, "hoppus_m^3", "hoppus_ft^3")).toBeCloseTo(35.3146667, 6);
  });
  it("round-trips every pair", () => {
    const units = ["m^3", "ft^3", "fbm", "pmt", "stere"] as const;
    for (const a of units)
      for (const b of units) expect(convertVolume(convertVolume(7.25, a, b), b, a)).toBeCloseTo(7.25, 10);
  });
  it("rejects unknown units", () => {
    expect(() => convertVolume(1, "cord" as never, "m^3")).toThrow(UnitError);
  });
});

describe("lengths, mass, density", () => {
  it("cm/in and m/ft exactly", () => {
    expect(convertLength(20.32, "cm", "in")).toBe(8);
    expect(convertLength(8, "in", "cm")).toBe(20.32);
    expect(convertLength(16, "ft", "m")).toBeCloseTo(4.8768, 12);
    expect(convertLength(1, "m", "mm")).toBe(1000);
    expect(convertLength(150, "mm", "in")).toBeCloseTo(5.905511811, 9);
  });
  it("kg/t", () => {
    expect(convertMass(2500, "kg", "t")).toBe(2.5);
    expect(convertMass(1, "t", "kg")).toBe(1000);
    expect(convertMass(1, "lb", "kg")).toBe(0.45359237);
  });
  it("density and its inverse m^3/t", () => {
    expect(convertDensity(800, "kg/m^3", "t/m^3")).toBe(0.8);
    expect(convertDensity(800, "kg/m^3", "m^3/t")).toBe(1.25);
    expect(convertDensity(1.25, "m^3/t", "kg/m^3")).toBe(800);
    expect(convertDensity(1, "lb/ft^3", "kg/m^3")).toBeCloseTo(16.018463, 6);
    expect(massKgFromVolume(2, 850)).toBe(1700);
    expect(volumeM3FromMass(1700, 850)).toBe(2);
    expect(() => volumeM3FromMass(1, 0)).toThrow(UnitError);
  });
});
