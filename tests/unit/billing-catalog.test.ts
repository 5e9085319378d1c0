import { describe, expect, it } from "vitest";
import {
  BUNDLE_IDS,
  deriveFeatures,
  displayMonthlyPrice,
  PACKAGES,
  packageFromLookupKey,
  PLAN_IDS,
  pricing,
  stripeLookupKey,
} from "~/domain/billing";
import { AddItemSchema, CheckoutSubscriptionSchema } from "~/utils/schemas/billing";

describe("the billing catalogue", () => {
  it("derives features from the active items only, as a sorted union", () => {
    expect(deriveFeatures([])).toEqual([]);
    expect(deriveFeatures(["reports_bundle", "custom_fields_bundle", "reports_bundle"])).toEqual([
      "custom_fields",
      "mixed_stack_reports",
      "reports",
    ]);
    expect(deriveFeatures(["unknown_thing"])).toEqual([]);
  });

  it("every gate's flag is granted by some item, and enterprise grants everything", () => {
    const gates = [
      "timber_management",
      "diameter_profiles",
      "minmax_assortments",
      "custom_fields",
      "reports",
      "mixed_stack_reports",
      "storage_access_management",
      "duplicate_storage_measurements",
      "inventories",
      "qr_code",
      "truck_detection",
      "precise_log_by_log_excel",
      "bill_of_lading_invoice",
      "igl_excel",
    ];
    const all = deriveFeatures([...PLAN_IDS, ...BUNDLE_IDS]);
    for (const g of gates) expect(all, g).toContain(g);
    expect(deriveFeatures(["enterprise_subscription"])).toEqual(all);
  });

  it("shows yearly prices per month, rounded, and enterprise on request", () => {
    expect(displayMonthlyPrice("pro_subscription", "year")).toBe(124);
    expect(displayMonthlyPrice("pro_subscription", "month")).toBe(149);
    expect(displayMonthlyPrice("enterprise_subscription", "year")).toBeNull();
    for (const id of [...PLAN_IDS, ...BUNDLE_IDS]) {
      const p = PACKAGES[id];
      if (p.yearly_price !== null) expect(p.yearly_price, id).toBeLessThan(p.monthly_price! * 12);
    }
  });

  it("picture plans cost less per picture as they grow", () => {
    const per = pricing().picture_plans.map((p) => p.price_per_picture);
    expect(per).toEqual([1.5, 1.4, 1.3, 1.2, 1.1]);
  });

  it("maps Stripe lookup keys both ways", () => {
    expect(stripeLookupKey("qr_code_bundle", "month")).toBe("qr_code_bundle_month");
    expect(packageFromLookupKey("qr_code_bundle_month")).toBe("qr_code_bundle");
    expect(packageFromLookupKey("pro_subscription_year")).toBe("pro_subscription");
    expect(packageFromLookupKey("gold_year")).toBeNull();
    expect(packageFromLookupKey(null)).toBeNull();
  });

  it("the schemas take form strings and JSON alike", () => {
    expect(
      CheckoutSubscriptionSchema.parse({
        period: "12",
        trial: "on",
        line_items: [{ package_id: "pro_subscription", quantity: "2" }],
      }),
    ).toEqual({
      period: 12,
      trial: true,
      line_items: [{ package_id: "pro_subscription", quantity: 2 }],
    });
    expect(
      CheckoutSubscriptionSchema.parse({ period: 1, line_items: [{ package_id: "pro_subscription" }] }).trial,
    ).toBe(false);
    expect(AddItemSchema.parse({ package_id: "reports_bundle" })).toEqual({
      package_id: "reports_bundle",
      quantity: 1,
    });
    expect(AddItemSchema.safeParse({ package_id: "reports_bundle", quantity: 1.5 }).success).toBe(false);
  });
});
