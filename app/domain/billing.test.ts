import { describe, expect, it } from "vitest";
import { cents, proratedCents, remainingShare, unitPrice } from "./billing";

const DAY = 24 * 3600 * 1000;

describe("billing money", () => {
  it("rounds euros to whole cents", () => {
    expect(cents(19.99)).toBe(1999);
    expect(cents(0.105)).toBe(11);
    expect(cents(0)).toBe(0);
  });

  it("the share of a paid period still ahead: 30-day months, 365-day years, clamped to 0..1", () => {
    const now = new Date("2026-03-01T00:00:00Z");
    expect(remainingShare({ paid_until: null, interval: null }, now)).toBe(1);
    expect(remainingShare({ paid_until: new Date(now.getTime() + 15 * DAY), interval: "month" }, now)).toBe(0.5);
    expect(remainingShare({ paid_until: new Date(now.getTime() + 73 * DAY), interval: "year" }, now)).toBeCloseTo(0.2);
    expect(remainingShare({ paid_until: new Date(now.getTime() - DAY), interval: "month" }, now)).toBe(0);
    expect(remainingShare({ paid_until: new Date(now.getTime() + 90 * DAY), interval: "month" }, now)).toBe(1);
  });

  it("prorates a seat change by the period's remaining share, in cents, never below zero", () => {
    const monthly = cents(unitPrice("pro_subscription", "month")!);
    expect(monthly).toBeGreaterThan(0);
    expect(proratedCents("pro_subscription", "month", 2, 0.5)).toBe(Math.round(monthly * 2 * 0.5));
    expect(proratedCents("pro_subscription", "month", 1, 1)).toBe(monthly);
    expect(proratedCents("pro_subscription", "month", -3, 0.5)).toBe(0);
    expect(proratedCents("pro_subscription", "month", 1, 0)).toBe(0);
  });

  it("a contact-sales plan has no price and prorates to nothing", () => {
    expect(unitPrice("enterprise_subscription", "month")).toBeNull();
    expect(proratedCents("enterprise_subscription", "month", 5, 1)).toBe(0);
  });
});
