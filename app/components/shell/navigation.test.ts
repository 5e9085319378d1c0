import { describe, expect, it } from "vitest";
import { adminEntries, isLocked, measurementEntries } from "./navigation";

describe("sidebar entries", () => {
  it("offers cmpc only to flagged organisations", () => {
    expect(measurementEntries({ cmpcEnabled: false }).map((e) => e.key)).toEqual([
      "timber",
      "container",
      "truck",
      "lumber",
    ]);
    expect(measurementEntries({ cmpcEnabled: true }).map((e) => e.key)).toEqual([
      "timber",
      "container",
      "truck",
      "lumber",
      "cmpc",
    ]);
  });

  it("locks custom fields, reports, inventories and analysis without their features", () => {
    const locked = adminEntries({ unseenReports: 0 })
      .filter((e) => isLocked(e, ["reports"]))
      .map((e) => e.key);
    expect(locked).toEqual(["customFields", "inventories", "analysis"]);
  });

  it("carries the unseen reports badge", () => {
    expect(adminEntries({ unseenReports: 3 }).find((e) => e.key === "reports")?.badge).toBe(3);
  });
});
