import { describe, expect, it } from "vitest";
import { clampPrecision, formatCents, formatCoordinate, formatDiameter, formatVolume, volumeUnitLabel } from "./format";
import { roundHalfUp, roundSignificant } from "./numeric";

describe("roundHalfUp", () => {
  it("rounds the decimal value, not the binary one", () => {
    expect(roundHalfUp(1.005, 2)).toBe(1.01);
    expect(roundHalfUp(0.0005, 3)).toBe(0.001);
    expect(roundHalfUp(2.675, 2)).toBe(2.68);
    expect(roundHalfUp(-2.5, 0)).toBe(-3);
    expect(roundHalfUp(1e-7, 3)).toBe(0);
    expect(roundHalfUp(123456, -2)).toBe(123500);
    expect(roundSignificant(0.061685, 4)).toBe(0.06169);
  });
});

describe("formatVolume", () => {
  it("uses the precision (1-4) and the unit label", () => {
    expect(formatVolume(1234.5678, { precision: 3, unit: "m^3" })).toBe("1,234.568 m³");
    expect(formatVolume(12.5, { precision: 1, unit: "fbm" })).toBe("12.5 FBM");
    expect(formatVolume(0.12345, { precision: 4, unit: "stere" })).toBe("0.1235 st");
    expect(formatVolume(3, { precision: 2, unit: "pmt" })).toBe("3.00 PMT");
    expect(formatVolume(3, { precision: 2, unit: "ft^3" })).toBe("3.00 ft³");
    expect(formatVolume(1.23456)).toBe("1.23");
  });
  it("rounds half up on the decimal value at the edge", () => {
    expect(formatVolume(1.0005, { precision: 3 })).toBe("1.001");
    expect(formatVolume(1.00049, { precision: 3 })).toBe("1.000");
  });
  it("shows zero, missing and non-finite values as a dash", () => {
    expect(formatVolume(0, { unit: "m^3" })).toBe("-");
    expect(formatVolume(-0)).toBe("-");
    expect(formatVolume(null)).toBe("-");
    expect(formatVolume(Number.NaN)).toBe("-");
    expect(formatVolume(0.0001, { precision: 2 })).toBe("0.00");
  });
  it("is locale-aware", () => {
    expect(formatVolume(1234.5, { precision: 2, locale: "de", unit: "m^3" })).toBe("1.234,50 m³");
    expect(formatVolume(1234.5, { precision: 1, locale: "et" })).toMatch(/^1\s234,5$/);
  });
  it("clamps precision to 1..4", () => {
    expect(clampPrecision(0)).toBe(1);
    expect(clampPrecision(7)).toBe(4);
    expect(formatVolume(1.23456, { precision: 9 })).toBe("1.2346");
  });
});

describe("other display helpers", () => {
  it("diameters to one decimal, in cm or inches", () => {
    expect(formatDiameter(23.45)).toBe("23.5");
    expect(formatDiameter(20.32, { unit: "in", withUnit: true })).toBe("8.0 in");
    expect(formatDiameter(23.45, { locale: "fr" })).toBe("23,5");
  });
  it("coordinates to 6 decimals by default and 5 for trucks, no grouping", () => {
    expect(formatCoordinate(59.4369871234)).toBe("59.436987");
    expect(formatCoordinate(-124.1234567, { decimals: 5 })).toBe("-124.12346");
    expect(formatCoordinate(1234.5, { decimals: 5 })).toBe("1234.50000");
  });
  it("unit labels and cents", () => {
    expect(volumeUnitLabel("m^3")).toBe("m³");
    expect(volumeUnitLabel("stere")).toBe("st");
    expect(formatCents(123456)).toBe("1,234.56");
  });
});

describe("one number and date format per locale", () => {
  it("formats every number of a screen in the language's Intl format", async () => {
    const { formatCount, formatNumber, formatQuantity } = await import("./format");
    expect(formatVolume(29.5, { precision: 2, unit: "m^3", locale: "et" })).toBe("29,50 m³");
    expect(formatDiameter(27.24, { locale: "et", withUnit: true })).toBe("27,2 cm");
    expect(formatNumber(5.5, 1, "et")).toBe("5,5");
    expect(formatCount(12345, "et")).toBe("12\u00a0345");
    expect(formatCount(12345, "de")).toBe("12.345");
    expect(formatCount(12345, "en-GB")).toBe("12,345");
    expect(formatQuantity(4.2, 2, "m", "fr")).toBe("4,20 m");
    expect(formatNumber(1234.5, 1, "ja")).toBe("1,234.5");
  });

  it("shows dates as dd.MM.yyyy with four-digit years on the user's time zone", async () => {
    const { formatDate, formatDateTime } = await import("./format");
    const instant = new Date("2026-03-31T22:30:00Z");
    expect(formatDate(instant, "UTC")).toBe("31.03.2026");
    expect(formatDate(instant, "Europe/Tallinn")).toBe("01.04.2026");
    expect(formatDateTime(instant, "Europe/Tallinn")).toBe("01.04.2026 01:30");
    expect(formatDateTime("2026-01-05T00:05:00Z", "America/New_York")).toBe("04.01.2026 19:05");
    expect(formatDate(null)).toBe("-");
  });

  it("reads and writes the dd.MM.yyyy form of a day", async () => {
    const { displayDayToIso, isoDayToDisplay } = await import("./format");
    expect(isoDayToDisplay("2026-02-03")).toBe("03.02.2026");
    expect(displayDayToIso("3.2.2026")).toBe("2026-02-03");
    expect(displayDayToIso("03.02.2026")).toBe("2026-02-03");
    expect(displayDayToIso("2026-02-03")).toBe("2026-02-03");
    expect(displayDayToIso("31.02.2026")).toBeNull();
    expect(displayDayToIso("03/02/2026")).toBeNull();
  });
});
