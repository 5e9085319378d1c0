import { describe, expect, it } from "vitest";
import { dashboardFilterSchema, parseFilterDate, withZonedFilterDays } from "./timber";

describe("filter dates are days on the user's wall clock", () => {
  it("a day in Tallinn (UTC+2 in winter) runs from 22:00 UTC the evening before", () => {
    expect(parseFilterDate("2026-11-24", false, "Europe/Tallinn")?.toISOString()).toBe("2026-11-23T22:00:00.000Z");
    expect(parseFilterDate("24.11.2026", true, "Europe/Tallinn")?.toISOString()).toBe("2026-11-24T21:59:59.999Z");
  });

  it("follows summer time and the day clocks change (Tallinn, 29 March 2026 has 23 hours)", () => {
    expect(parseFilterDate("2026-07-01", false, "Europe/Tallinn")?.toISOString()).toBe("2026-06-30T21:00:00.000Z");
    const start = parseFilterDate("2026-03-29", false, "Europe/Tallinn")!;
    const end = parseFilterDate("2026-03-29", true, "Europe/Tallinn")!;
    expect((end.getTime() + 1 - start.getTime()) / 3_600_000).toBe(23);
  });

  it("without a time zone the day is the UTC day; impossible dates are refused", () => {
    expect(parseFilterDate("2026-11-24", false)?.toISOString()).toBe("2026-11-24T00:00:00.000Z");
    expect(parseFilterDate("2026-02-30", false, "Europe/Tallinn")).toBeNull();
    expect(parseFilterDate("31.4.2026", true, "Asia/Tokyo")).toBeNull();
  });

  it("a measurement taken at 22:39 UTC is 'today' for a Tallinn user the next calendar day", () => {
    const parsed = dashboardFilterSchema("Europe/Tallinn").parse({
      taken_at_start: "2026-11-24",
      taken_at_end: "2026-11-24",
    });
    const taken = new Date("2026-11-23T22:39:00Z");
    expect(taken >= parsed.taken_at_start! && taken <= parsed.taken_at_end!).toBe(true);
  });

  it("export bodies get their date-only values as instants; full instants and other keys are kept", () => {
    expect(
      withZonedFilterDays(
        { taken_at_start: "2026-11-24", created_at_end: "2026-11-24T05:00:00Z", storage_ids: "1" },
        "Asia/Tokyo",
      ),
    ).toEqual({ taken_at_start: "2026-11-23T15:00:00.000Z", created_at_end: "2026-11-24T05:00:00Z", storage_ids: "1" });
  });
});
