import { describe, expect, it } from "vitest";
import { matchingRange, quickRangeDates, dateToZonedLocal, zonedLocalToDate } from "./timber-dates";

describe("quick date ranges", () => {
  const now = new Date("2026-03-31T22:30:00Z"); // already 1 April in Tallinn
  it("counts back from today in the user's time zone", () => {
    expect(quickRangeDates("today", "Europe/Tallinn", now)).toEqual({ start: "2026-04-01", end: "2026-04-01" });
    expect(quickRangeDates("week", "Europe/Tallinn", now)).toEqual({ start: "2026-03-25", end: "2026-04-01" });
    expect(quickRangeDates("3months", "UTC", now)).toEqual({ start: "2025-12-31", end: "2026-03-31" });
    expect(quickRangeDates("month", "UTC", now)).toEqual({ start: "2026-02-28", end: "2026-03-31" });
    expect(quickRangeDates("year", "UTC", now)).toEqual({ start: "2025-03-31", end: "2026-03-31" });
  });
  it("highlights a range only while the dates still match it", () => {
    expect(matchingRange("2025-12-31", "2026-03-31", "UTC", now)).toBe("3months");
    expect(matchingRange("2025-12-30", "2026-03-31", "UTC", now)).toBeNull();
    expect(matchingRange(undefined, "2026-03-31", "UTC", now)).toBeNull();
  });
});

describe("wall-clock times in the user's zone", () => {
  it("round-trips through Tallinn summer and winter time", () => {
    expect(zonedLocalToDate("2026-07-01T12:00", "Europe/Tallinn")?.toISOString()).toBe("2026-07-01T09:00:00.000Z");
    expect(zonedLocalToDate("2026-01-01T12:00", "Europe/Tallinn")?.toISOString()).toBe("2026-01-01T10:00:00.000Z");
    expect(dateToZonedLocal(new Date("2026-01-01T10:00:00Z"), "Europe/Tallinn")).toBe("2026-01-01T12:00");
    expect(zonedLocalToDate("tomorrow", "UTC")).toBeNull();
  });
});
