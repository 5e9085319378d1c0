// Billing's money and catalogue: what each plan (package) and add-on bundle costs, which feature
// flags it grants, and the prorated amount of a change inside a paid period. Pure data, shared by the server (feature derivation, prices, Stripe lookup keys) and
// the screens. docs/decisions/003-billing.md repeats it.
//
// An organisation's enabled features are the union of the features of its ACTIVE items and
// nothing else (see deriveFeatures). Prices are in EUR, per seat (device) for plans and per
// organisation for bundles; yearly prices are ~2 months cheaper than 12 monthly payments.

export const PLAN_IDS = [
  "pro_subscription",
  "container_subscription",
  "lumber_subscription",
  "log_counter_subscription",
  "enterprise_subscription",
] as const;
export const BUNDLE_IDS = [
  "logistics_bundle",
  "qr_code_bundle",
  "storage_access_management_bundle",
  "custom_fields_bundle",
  "diameter_profiles_bundle",
  "duplicate_storage_measurements_bundle",
  "reports_bundle",
] as const;
export type PlanId = (typeof PLAN_IDS)[number];
export type BundleId = (typeof BUNDLE_IDS)[number];
export type PackageId = PlanId | BundleId;
export const PACKAGE_IDS: readonly PackageId[] = [...PLAN_IDS, ...BUNDLE_IDS];

/** The four self-service plans a trial can take seats in (enterprise is a contact plan). */
export const TRIAL_PLAN_IDS = [
  "pro_subscription",
  "container_subscription",
  "lumber_subscription",
  "log_counter_subscription",
] as const;
export const TRIAL_MAX_SEATS = 3;
export const TRIAL_MONTHS = 1;

export interface PackageDef {
  id: PackageId;
  purchase_type: "plan" | "bundle";
  /** EUR per month when billed monthly; null: on request (enterprise). */
  monthly_price: number | null;
  /** EUR per year when billed yearly; null: on request. */
  yearly_price: number | null;
  features: readonly string[];
  /** Bundles are one per organisation; plans are bought per device seat. */
  perSeat: boolean;
}

const PRO_FEATURES = ["timber_management", "minmax_assortments", "inventories", "precise_log_by_log_excel"] as const;
const CONTAINER_FEATURES = ["container_measurements", "bill_of_lading_invoice"] as const;
const LUMBER_FEATURES = ["lumber_measurements"] as const;
const LOG_COUNTER_FEATURES = ["log_counter"] as const;
/**
 * Customer-specific features: sold by sales with the enterprise plan, not as a package of their
 * own (docs/decisions/026-exports-and-labels.md). The spec withholds the customers' flag names;
 * these are named after what they do.
 */
export const CUSTOMER_FEATURES = ["wood_yard_log_excel", "wood_yard_summary_excel", "custom_export_layouts"] as const;

export const BUNDLE_FEATURES: Record<BundleId, readonly string[]> = {
  logistics_bundle: ["truck_detection", "logistics", "igl_excel"],
  qr_code_bundle: ["qr_code"],
  storage_access_management_bundle: ["storage_access_management"],
  custom_fields_bundle: ["custom_fields"],
  diameter_profiles_bundle: ["diameter_profiles"],
  duplicate_storage_measurements_bundle: ["duplicate_storage_measurements"],
  reports_bundle: ["reports", "mixed_stack_reports"],
};

export const PACKAGES: Record<PackageId, PackageDef> = {
  pro_subscription: {
    id: "pro_subscription",
    purchase_type: "plan",
    monthly_price: 149,
    yearly_price: 1490,
    features: PRO_FEATURES,
    perSeat: true,
  },
  container_subscription: {
    id: "container_subscription",
    purchase_type: "plan",
    monthly_price: 99,
    yearly_price: 990,
    features: CONTAINER_FEATURES,
    perSeat: true,
  },
  lumber_subscription: {
    id: "lumber_subscription",
    purchase_type: "plan",
    monthly_price: 99,
    yearly_price: 990,
    features: LUMBER_FEATURES,
    perSeat: true,
  },
  log_counter_subscription: {
    id: "log_counter_subscription",
    purchase_type: "plan",
    monthly_price: 49,
    yearly_price: 490,
    features: LOG_COUNTER_FEATURES,
    perSeat: true,
  },
  // Enterprise: everything, priced on request (a contact plan; sold through Stripe by sales).
  enterprise_subscription: {
    id: "enterprise_subscription",
    purchase_type: "plan",
    monthly_price: null,
    yearly_price: null,
    features: [
      ...new Set([
        ...PRO_FEATURES,
        ...CONTAINER_FEATURES,
        ...LUMBER_FEATURES,
        ...LOG_COUNTER_FEATURES,
        ...Object.values(BUNDLE_FEATURES).flat(),
        ...CUSTOMER_FEATURES,
      ]),
    ],
    perSeat: true,
  },
  logistics_bundle: {
    id: "logistics_bundle",
    purchase_type: "bundle",
    monthly_price: 39,
    yearly_price: 390,
    features: BUNDLE_FEATURES.logistics_bundle,
    perSeat: false,
  },
  qr_code_bundle: {
    id: "qr_code_bundle",
    purchase_type: "bundle",
    monthly_price: 19,
    yearly_price: 190,
    features: BUNDLE_FEATURES.qr_code_bundle,
    perSeat: false,
  },
  storage_access_management_bundle: {
    id: "storage_access_management_bundle",
    purchase_type: "bundle",
    monthly_price: 29,
    yearly_price: 290,
    features: BUNDLE_FEATURES.storage_access_management_bundle,
    perSeat: false,
  },
  custom_fields_bundle: {
    id: "custom_fields_bundle",
    purchase_type: "bundle",
    monthly_price: 19,
    yearly_price: 190,
    features: BUNDLE_FEATURES.custom_fields_bundle,
    perSeat: false,
  },
  diameter_profiles_bundle: {
    id: "diameter_profiles_bundle",
    purchase_type: "bundle",
    monthly_price: 19,
    yearly_price: 190,
    features: BUNDLE_FEATURES.diameter_profiles_bundle,
    perSeat: false,
  },
  duplicate_storage_measurements_bundle: {
    id: "duplicate_storage_measurements_bundle",
    purchase_type: "bundle",
    monthly_price: 49,
    yearly_price: 490,
    features: BUNDLE_FEATURES.duplicate_storage_measurements_bundle,
    perSeat: false,
  },
  reports_bundle: {
    id: "reports_bundle",
    purchase_type: "bundle",
    monthly_price: 29,
    yearly_price: 290,
    features: BUNDLE_FEATURES.reports_bundle,
    perSeat: false,
  },
};

export function isPackageId(value: unknown): value is PackageId {
  return typeof value === "string" && (PACKAGE_IDS as readonly string[]).includes(value);
}
export function isPlanId(value: unknown): value is PlanId {
  return typeof value === "string" && (PLAN_IDS as readonly string[]).includes(value);
}

/** Picture packages: pay-as-you-go measurements for organisations without a plan. */
export const PICTURE_PLANS = {
  PLAN_10: { pictures: 10, price: 15 },
  PLAN_20: { pictures: 20, price: 28 },
  PLAN_50: { pictures: 50, price: 65 },
  PLAN_100: { pictures: 100, price: 120 },
  PLAN_200: { pictures: 200, price: 220 },
} as const;
export type PicturePlanId = keyof typeof PICTURE_PLANS;
export const PICTURE_PLAN_IDS = Object.keys(PICTURE_PLANS) as PicturePlanId[];
export const DEFAULT_PICTURE_PLAN: PicturePlanId = "PLAN_200";
export function isPicturePlanId(value: unknown): value is PicturePlanId {
  return typeof value === "string" && value in PICTURE_PLANS;
}

/** The features granted by a set of active items: the union of each item's features, sorted. */
export function deriveFeatures(activePackageIds: readonly string[]): string[] {
  const features = new Set<string>();
  for (const id of activePackageIds) if (isPackageId(id)) for (const f of PACKAGES[id].features) features.add(f);
  return [...features].sort();
}

/** Price of one unit for the interval (EUR). */
export function unitPrice(id: PackageId, interval: "month" | "year"): number | null {
  const p = PACKAGES[id];
  return interval === "year" ? p.yearly_price : p.monthly_price;
}

/** The spec's display rule: prices rounded; yearly shown per month (yearly / 12). */
export function displayMonthlyPrice(id: PackageId, cycle: "month" | "year"): number | null {
  const p = PACKAGES[id];
  if (cycle === "year") return p.yearly_price === null ? null : Math.round(p.yearly_price / 12);
  return p.monthly_price === null ? null : Math.round(p.monthly_price);
}

/** GET /pricing's answer. */
export function pricing() {
  return {
    currency: "EUR",
    packages: PACKAGE_IDS.map((id) => ({
      package_id: id,
      purchase_type: PACKAGES[id].purchase_type,
      monthly_price: PACKAGES[id].monthly_price,
      yearly_price: PACKAGES[id].yearly_price,
      features: [...PACKAGES[id].features],
    })),
    picture_plans: PICTURE_PLAN_IDS.map((id) => ({
      package_id: id,
      pictures: PICTURE_PLANS[id].pictures,
      price: PICTURE_PLANS[id].price,
      price_per_picture: Math.round((PICTURE_PLANS[id].price / PICTURE_PLANS[id].pictures) * 100) / 100,
    })),
  };
}

/** Stripe prices are found by lookup key: "<package_id>_<month|year>". */
export function stripeLookupKey(id: PackageId, interval: "month" | "year") {
  return `${id}_${interval}`;
}
export function packageFromLookupKey(key: string | null | undefined): PackageId | null {
  if (!key) return null;
  const m = key.match(/^(.*)_(month|year)$/);
  return m && isPackageId(m[1]) ? m[1] : null;
}

/** Euros to whole cents. */
export function cents(eur: number) {
  return Math.round(eur * 100);
}

/** The share of the current period still ahead (0..1), for prorated amounts; 1 with no paid period. */
export function remainingShare(
  account: { paid_until: Date | null; interval: "month" | "year" | null },
  now = new Date(),
) {
  if (!account.paid_until) return 1;
  const periodMs = (account.interval === "year" ? 365 : 30) * 24 * 3600 * 1000;
  return Math.min(1, Math.max(0, (account.paid_until.getTime() - now.getTime()) / periodMs));
}

/** What adding `quantityDelta` seats (or a bundle) costs for the rest of the period, in cents; never negative. */
export function proratedCents(packageId: PackageId, interval: "month" | "year", quantityDelta: number, share: number) {
  return Math.max(0, Math.round(cents(unitPrice(packageId, interval) ?? 0) * quantityDelta * share));
}
