import { describe, expect, it } from "vitest";
import { apiToken, createOrganization, createSubscription, createUser, webCookie } from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { api, baseUrl } from "#tests/helpers/http";
import { expectOutsiderGets404 } from "#tests/helpers/tenancy";
import {
  addPictureCredits,
  consumePictureCredit,
  getBillingAccount,
  pictureCreditStatus,
  PictureCreditError,
} from "~/models/billing.server";
import { settleLocalPeriod } from "~/services/billing/local.server";
import { db } from "~/utils/db.server";

// The billing calls against the running app with the local provider (no STRIPE_SECRET_KEY).

async function admin(features: string[] = []) {
  const org = await createOrganization({ name: "Spruce Yard", features });
  const user = await createUser(org.id, { role: "admin" });
  return { org, user, token: await apiToken(user.id), cookie: await webCookie(user.id) };
}

async function viewerOf(orgId: number) {
  const user = await createUser(orgId, { role: "viewer" });
  return apiToken(user.id);
}

/** Confirms a local checkout as the browser would (the page's form post). */
async function confirmCheckout(redirectUrl: string, cookie: string) {
  const url = new URL(redirectUrl);
  expect(url.origin).toBe(baseUrl());
  expect(url.pathname).toMatch(/^\/billing\/checkout\/[\w-]{32}$/);
  const page = await api(url.pathname, { cookie });
  expect(page.status).toBe(200);
  const r = await api(url.pathname, { cookie, form: { confirm: "1" } });
  expect(r.status).toBe(302);
  return r;
}

async function features(orgId: number) {
  const row = await db()
    .selectFrom("organizations")
    .select("features")
    .where("id", "=", orgId)
    .executeTakeFirstOrThrow();
  return row.features;
}

describe("GET /api/web_app/pricing", () => {
  it("answers monthly and yearly prices per package and the picture plans; 401 without a token", async () => {
    const { token } = await admin();
    const r = await api("/api/web_app/pricing", { token });
    expect(r.status).toBe(200);
    expect(r.data.currency).toBe("EUR");
    expect(r.data.packages).toHaveLength(12);
    expect(r.data.packages.find((p: { package_id: string }) => p.package_id === "pro_subscription")).toMatchObject({
      monthly_price: 149,
      yearly_price: 1490,
      purchase_type: "plan",
    });
    expect(r.data.packages.find((p: { package_id: string }) => p.package_id === "reports_bundle")).toMatchObject({
      purchase_type: "bundle",
      features: ["reports", "mixed_stack_reports"],
    });
    expect(r.data.picture_plans.map((p: { package_id: string }) => p.package_id)).toEqual([
      "PLAN_10",
      "PLAN_20",
      "PLAN_50",
      "PLAN_100",
      "PLAN_200",
    ]);
    expect(r.data.picture_plans[4]).toEqual({
      package_id: "PLAN_200",
      pictures: 200,
      price: 220,
      price_per_picture: 1.1,
    });
    expect((await api("/api/web_app/pricing")).status).toBe(401);
  });
});

describe("the subscription lifecycle through the API (local provider)", () => {
  it("checkout, features, add a bundle with a pending invoice, preview and change a quantity, cancel, invoices, portal", async () => {
    const { org, token, cookie } = await admin(["timber_management"]);
    // Stored features not backed by items are replaced as soon as items change.
    let r = await api("/api/web_app/subscription/items", { token });
    expect(r.data).toMatchObject({
      subscription_info: { status: null, remaining_measurements: 0 },
      items: [],
      packages: [],
    });

    r = await api("/api/web_app/checkout/subscription", {
      token,
      json: { period: 12, trial: false, line_items: [{ package_id: "pro_subscription", quantity: 2 }] },
    });
    expect(r.status).toBe(200);
    // The redirect alone changes nothing.
    expect((await getBillingAccount(db(), { organizationId: org.id }))?.status ?? null).toBeNull();
    await confirmCheckout(r.data.redirect_url, cookie);
    // Confirming twice applies it once.
    await api(new URL(r.data.redirect_url).pathname, { cookie, form: { confirm: "1" } });

    r = await api("/api/web_app/enabled_features", { token });
    expect(r.data.features).toEqual([
      "inventories",
      "minmax_assortments",
      "precise_log_by_log_excel",
      "timber_management",
    ]);
    r = await api("/api/web_app/subscription/items", { token });
    expect(r.data.subscription_info).toMatchObject({
      status: "active",
      interval: "year",
      cancel_at_period_end: false,
      billing_currency: "EUR",
      collection_method: "charge_automatically",
    });
    expect(r.data.items).toEqual([
      {
        package_id: "pro_subscription",
        quantity: 2,
        cancelled: false,
        features: ["timber_management", "minmax_assortments", "inventories", "precise_log_by_log_excel"],
        purchase_type: "plan",
        name: "pro_subscription",
      },
    ]);
    expect(r.data.packages).toEqual([{ package_id: "pro_subscription", quantity: 2, devices_linked: 0 }]);

    // With a subscription, a second checkout is refused.
    r = await api("/api/web_app/checkout/subscription", {
      token,
      json: { period: 1, line_items: [{ package_id: "lumber_subscription" }] },
    });
    expect(r).toMatchObject({ status: 422, data: { errors: { _: ["billing:errors.alreadySubscribed"] } } });

    r = await api("/api/web_app/subscription/items", { token, json: { package_id: "reports_bundle" } });
    expect(r.status).toBe(201);
    expect(r.data.item).toMatchObject({
      package_id: "reports_bundle",
      quantity: 1,
      cancelled: false,
      purchase_type: "bundle",
    });
    expect(r.data.invoice).toMatchObject({ status: "open", currency: "EUR" });
    expect(r.data.invoice.total).toBeGreaterThan(280);
    expect(r.data.invoice.total).toBeLessThanOrEqual(290);
    expect(await features(org.id)).toContain("reports");

    r = await api("/api/web_app/subscription/items/preview", {
      token,
      json: { package_id: "pro_subscription", quantity: 3 },
    });
    expect(r.status).toBe(200);
    expect(r.data.amount_due).toBeGreaterThan(1480);
    expect(r.data.amount_due).toBeLessThanOrEqual(1490);

    r = await api("/api/web_app/subscription/items", {
      method: "PATCH",
      token,
      json: { package_id: "pro_subscription", quantity: 3 },
    });
    expect(r.status).toBe(200);
    expect(r.data.item.quantity).toBe(3);
    expect(r.data.invoice.total).toBeCloseTo(1490, -1);

    r = await api("/api/web_app/subscription/items/reports_bundle", { method: "DELETE", token });
    expect(r.status).toBe(200);
    expect(r.data.item).toMatchObject({ package_id: "reports_bundle", cancelled: true });
    // Cancelled until the period ends: the features stay.
    expect(await features(org.id)).toContain("reports");
    r = await api("/api/web_app/subscription/items/reports_bundle", { method: "DELETE", token });
    expect(r).toMatchObject({ status: 422, data: { errors: { package_id: ["billing:errors.alreadyCancelled"] } } });

    r = await api("/api/web_app/subscription/invoices", { token });
    expect(r.status).toBe(200);
    expect(r.data.map((i: { status: string }) => i.status).sort()).toEqual(["open", "open", "paid"]);
    const paid = r.data.find((i: { status: string }) => i.status === "paid");
    expect(paid).toMatchObject({
      total: 2980,
      lines: [{ description: "pro_subscription", quantity: 2, amount: 2980 }],
      url: expect.stringContaining("/billing/invoices"),
    });
    expect(paid.created_at).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(paid.created_at).toBeLessThan(Date.now() / 1000 + 1);

    r = await api("/api/web_app/customer_portal", { method: "POST", token });
    expect(r).toMatchObject({ status: 200, data: { portal_url: `${baseUrl()}/billing/invoices` } });

    // When the paid period has ended, the cancelled bundle goes and with it its features.
    const later = new Date(Date.now() + 400 * 24 * 3600 * 1000);
    await settleLocalPeriod(db(), org.id, later);
    expect(await features(org.id)).not.toContain("reports");
    expect(await features(org.id)).toContain("timber_management");
  });

  it("buys a picture package: the remaining measurements rise after the confirmation", async () => {
    const { org, token, cookie } = await admin();
    const r = await api("/api/web_app/checkout/picture_package", { token, json: { package_id: "PLAN_20" } });
    expect(r.status).toBe(200);
    expect((await getBillingAccount(db(), { organizationId: org.id }))?.remaining_measurements ?? 0).toBe(0);
    await confirmCheckout(r.data.redirect_url, cookie);
    expect((await getBillingAccount(db(), { organizationId: org.id }))?.remaining_measurements).toBe(20);
    const items = await api("/api/web_app/subscription/items", { token });
    expect(items.data.subscription_info.remaining_measurements).toBe(20);
    const invoices = await api("/api/web_app/subscription/invoices", { token });
    expect(invoices.data).toMatchObject([
      { status: "paid", total: 28, lines: [{ description: "PLAN_20", quantity: 1, amount: 28 }] },
    ]);
  });

  it("a trial: one month, at most 3 seats, no duplicate-storage bundle while trialing", async () => {
    const { org, token, cookie } = await admin();
    let r = await api("/api/web_app/checkout/subscription", {
      token,
      json: {
        period: 1,
        trial: true,
        line_items: [
          { package_id: "pro_subscription", quantity: 2 },
          { package_id: "lumber_subscription", quantity: 1 },
        ],
      },
    });
    expect(r.status).toBe(200);
    await confirmCheckout(r.data.redirect_url, cookie);
    const account = (await getBillingAccount(db(), { organizationId: org.id }))!;
    expect(account.status).toBe("trialing");
    const days = (account.trial_end!.getTime() - Date.now()) / 86400000;
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);
    expect((await api("/api/web_app/subscription/invoices", { token })).data).toEqual([]);

    const before = await snapshotTables();
    r = await api("/api/web_app/subscription/items", {
      token,
      json: { package_id: "duplicate_storage_measurements_bundle" },
    });
    expect(r).toMatchObject({
      status: 422,
      data: { errors: { package_id: ["billing:errors.duplicateStorageTrial"] } },
    });
    r = await api("/api/web_app/subscription/items", {
      method: "PATCH",
      token,
      json: { package_id: "pro_subscription", quantity: 3 },
    });
    expect(r).toMatchObject({ status: 422, data: { errors: { quantity: ["billing:errors.trialSeats"] } } });
    expect(await snapshotTables()).toEqual(before);
    // Other bundles are fine while trialing, without an invoice.
    r = await api("/api/web_app/subscription/items", { token, json: { package_id: "qr_code_bundle" } });
    expect(r).toMatchObject({ status: 201, data: { invoice: null } });
    expect(await features(org.id)).toContain("qr_code");
  });
});

describe("billing validation answers 422 and changes nothing", () => {
  it("refuses bad checkouts, items and picture packages", async () => {
    const { org, token } = await admin();
    const cases: Array<[string, string, unknown, Record<string, string[]>]> = [
      [
        "POST",
        "/api/web_app/checkout/subscription",
        { period: 6, line_items: [{ package_id: "pro_subscription" }] },
        { period: ["billing:errors.period"] },
      ],
      [
        "POST",
        "/api/web_app/checkout/subscription",
        { period: 1, line_items: [] },
        { line_items: ["billing:errors.noItems"] },
      ],
      [
        "POST",
        "/api/web_app/checkout/subscription",
        { period: 1, line_items: [{ package_id: "gold" }] },
        { "line_items.0.package_id": ["billing:errors.unknownPackage"] },
      ],
      [
        "POST",
        "/api/web_app/checkout/subscription",
        { period: 1, line_items: [{ package_id: "enterprise_subscription" }] },
        { "line_items.0.package_id": ["billing:errors.contactSales"] },
      ],
      [
        "POST",
        "/api/web_app/checkout/subscription",
        {
          period: 1,
          trial: true,
          line_items: [
            { package_id: "pro_subscription", quantity: 2 },
            { package_id: "container_subscription", quantity: 2 },
          ],
        },
        { line_items: ["billing:errors.trialSeats"] },
      ],
      [
        "POST",
        "/api/web_app/checkout/subscription",
        { period: 1, trial: true, line_items: [{ package_id: "reports_bundle" }] },
        { line_items: ["billing:errors.trialPlansOnly"] },
      ],
      [
        "POST",
        "/api/web_app/checkout/subscription",
        { period: 1, line_items: [{ package_id: "reports_bundle", quantity: 2 }] },
        { "line_items.0.quantity": ["billing:errors.bundleQuantity"] },
      ],
      [
        "POST",
        "/api/web_app/subscription/items",
        { package_id: "reports_bundle" },
        { _: ["billing:errors.noSubscription"] },
      ],
      [
        "POST",
        "/api/web_app/subscription/items",
        { package_id: "pro_subscription", quantity: 0 },
        { quantity: ["billing:errors.quantityMin"] },
      ],
      [
        "PATCH",
        "/api/web_app/subscription/items",
        { package_id: "pro_subscription" },
        { quantity: ["billing:errors.quantity"] },
      ],
      [
        "POST",
        "/api/web_app/subscription/items/preview",
        { package_id: "nope", quantity: 1 },
        { package_id: ["billing:errors.unknownPackage"] },
      ],
      [
        "POST",
        "/api/web_app/checkout/picture_package",
        { package_id: "PLAN_7" },
        { package_id: ["billing:errors.unknownPicturePlan"] },
      ],
    ];
    const before = await snapshotTables();
    for (const [method, path, body, errors] of cases) {
      const r = await api(path, { method, token, json: body });
      expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(422);
      expect(r.data, `${path} ${JSON.stringify(body)}`).toEqual({ error: "validation_failed", errors });
    }
    expect(await snapshotTables()).toEqual(before);

    await createSubscription(org.id, { items: [{ package_id: "pro_subscription", quantity: 1 }] });
    const after = await snapshotTables();
    const more: Array<[string, string, unknown, Record<string, string[]>]> = [
      [
        "POST",
        "/api/web_app/subscription/items",
        { package_id: "pro_subscription" },
        { package_id: ["billing:errors.alreadyPurchased"] },
      ],
      [
        "PATCH",
        "/api/web_app/subscription/items",
        { package_id: "lumber_subscription", quantity: 2 },
        { package_id: ["billing:errors.notPurchased"] },
      ],
      [
        "POST",
        "/api/web_app/subscription/items",
        { package_id: "enterprise_subscription" },
        { package_id: ["billing:errors.contactSales"] },
      ],
    ];
    for (const [method, path, body, errors] of more) {
      const r = await api(path, { method, token, json: body });
      expect(r, `${path} ${JSON.stringify(body)}`).toMatchObject({
        status: 422,
        data: { error: "validation_failed", errors },
      });
    }
    expect((await api("/api/web_app/subscription/items/lumber_subscription", { method: "DELETE", token })).status).toBe(
      404,
    );
    expect((await api("/api/web_app/subscription/items/not_a_package", { method: "DELETE", token })).status).toBe(404);
    expect(await snapshotTables()).toEqual(after);
  });
});

describe("billing permissions and tenancy", () => {
  it("answers 403 to non-admins on every billing call and changes nothing; members read features and prices", async () => {
    const { org } = await admin();
    await createSubscription(org.id, {
      items: [{ package_id: "pro_subscription", quantity: 1 }, { package_id: "reports_bundle" }],
    });
    const token = await viewerOf(org.id);
    const before = await snapshotTables();
    const calls: Array<[string, string, unknown?]> = [
      ["GET", "/api/web_app/subscription/invoices"],
      // Billing is the admins' area (docs/decisions/011-viewer-billing-and-exports.md).
      ["GET", "/api/web_app/subscription/items"],
      ["POST", "/api/web_app/checkout/subscription", { period: 1, line_items: [{ package_id: "pro_subscription" }] }],
      ["POST", "/api/web_app/checkout/picture_package", { package_id: "PLAN_10" }],
      ["POST", "/api/web_app/subscription/items", { package_id: "qr_code_bundle" }],
      ["PATCH", "/api/web_app/subscription/items", { package_id: "pro_subscription", quantity: 2 }],
      ["DELETE", "/api/web_app/subscription/items/reports_bundle"],
      ["POST", "/api/web_app/subscription/items/preview", { package_id: "pro_subscription", quantity: 2 }],
      ["POST", "/api/web_app/customer_portal"],
    ];
    for (const [method, path, body] of calls) {
      const r = await api(path, { method, token, json: body });
      expect(r.status, `${method} ${path}`).toBe(403);
    }
    expect(await snapshotTables()).toEqual(before);
    expect((await api("/api/web_app/enabled_features", { token })).data.features).toContain("reports");
    expect((await api("/api/web_app/pricing", { token })).status).toBe(200);
  });

  it("another organisation's item, checkout page and invoices stay out of reach", async () => {
    const { org, token, cookie } = await admin();
    await createSubscription(org.id, {
      items: [{ package_id: "pro_subscription", quantity: 1 }, { package_id: "reports_bundle" }],
    });
    await api("/api/web_app/subscription/items", {
      method: "PATCH",
      token,
      json: { package_id: "pro_subscription", quantity: 2 },
    });
    const checkout = await api("/api/web_app/checkout/picture_package", { token, json: { package_id: "PLAN_10" } });
    const checkoutPath = new URL(checkout.data.redirect_url).pathname;

    await expectOutsiderGets404(({ token: t }) =>
      api("/api/web_app/subscription/items/reports_bundle", { method: "DELETE", token: t }),
    );
    const outsider = await createOrganization({ name: "Other Yard" });
    const outsiderAdmin = await createUser(outsider.id, { role: "admin" });
    const t = await apiToken(outsiderAdmin.id);
    // The local checkout page of another organisation: 404 to look at and to confirm, nothing changes.
    const outsiderCookie = await webCookie(outsiderAdmin.id);
    const before = await snapshotTables();
    expect((await api(checkoutPath, { cookie: outsiderCookie })).status).toBe(404);
    expect((await api(checkoutPath, { cookie: outsiderCookie, form: { confirm: "1" } })).status).toBe(404);
    expect(await snapshotTables()).toEqual(before);
    expect((await api("/api/web_app/subscription/invoices", { token: t })).data).toEqual([]);
    expect((await api("/api/web_app/subscription/items", { token: t })).data.items).toEqual([]);
    expect((await api("/api/web_app/enabled_features", { token: t })).data.features).toEqual([]);
    expect((await getBillingAccount(db(), { organizationId: org.id }))?.remaining_measurements ?? 0).toBe(0);
    // Its own admin can confirm it.
    await confirmCheckout(checkout.data.redirect_url, cookie);
    expect((await getBillingAccount(db(), { organizationId: org.id }))?.remaining_measurements).toBe(10);
  });
});

describe("picture measurements consumed by uploads", () => {
  it("consumePictureCredit takes one per upload and refuses at zero with no_remaining_measurements", async () => {
    const { org } = await admin();
    await addPictureCredits(db(), { organizationId: org.id }, 2, "PLAN_10");
    expect(await consumePictureCredit(db(), { organizationId: org.id })).toEqual({ consumed: true, remaining: 1 });
    expect((await pictureCreditStatus(db(), { organizationId: org.id })).lastDayWarning).toBe(true); // 1 left, 1 used in the last day
    expect(await consumePictureCredit(db(), { organizationId: org.id })).toEqual({ consumed: true, remaining: 0 });
    const error = await consumePictureCredit(db(), { organizationId: org.id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PictureCreditError);
    expect(error).toMatchObject({ code: "no_remaining_measurements", status: 402 });
    expect((await getBillingAccount(db(), { organizationId: org.id }))?.remaining_measurements).toBe(0);
    expect(await pictureCreditStatus(db(), { organizationId: org.id })).toMatchObject({
      remaining: 0,
      usedLastDay: 2,
      lastDayWarning: true,
    });
  });

  it("an organisation with a live plan measures without consuming; plenty left shows no warning", async () => {
    const { org } = await admin();
    await createSubscription(org.id, { remaining: 5 });
    expect(await consumePictureCredit(db(), { organizationId: org.id })).toEqual({ consumed: false, remaining: 5 });
    const other = await createOrganization();
    await addPictureCredits(db(), { organizationId: other.id }, 100, "PLAN_100");
    await consumePictureCredit(db(), { organizationId: other.id });
    expect(await pictureCreditStatus(db(), { organizationId: other.id })).toMatchObject({
      remaining: 99,
      usedLastDay: 1,
      lastDayWarning: false,
    });
  });
});

describe("the demo seed's subscription", () => {
  it("gives the demo organisation a yearly Pro subscription whose items make its features", async () => {
    const { seedBilling } = await import("#db/seed/billing");
    const { org, token } = await admin(["something_stale"]);
    const features = await seedBilling(db(), org.id);
    expect(features).toEqual([
      "custom_fields",
      "diameter_profiles",
      "inventories",
      "minmax_assortments",
      "mixed_stack_reports",
      "precise_log_by_log_excel",
      "reports",
      "timber_management",
    ]);
    const r = await api("/api/web_app/subscription/items", { token });
    expect(r.data.subscription_info).toMatchObject({ status: "active", interval: "year", remaining_measurements: 50 });
    expect(r.data.packages).toEqual([{ package_id: "pro_subscription", quantity: 3, devices_linked: 0 }]);
    expect((await api("/api/web_app/subscription/invoices", { token })).data).toMatchObject([
      { status: "paid", total: 1490 * 3 + 190 + 190 + 290 },
    ]);
  });
});
