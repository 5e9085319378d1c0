import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import Stripe from "stripe";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createOrganization, createUser, apiToken } from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { api } from "#tests/helpers/http";
import { getBillingAccount, listItems, updateBillingAccount, upsertItem } from "~/models/billing.server";
import { createStripeProvider, handleStripeWebhook } from "~/services/billing/stripe.server";
import { db } from "~/utils/db.server";

// The Stripe adapter against msw handlers answering like Stripe's API (request shapes checked),
// and the webhook with signatures made by the stripe library.

type Seen = { method: string; path: string; params: Record<string, string>; auth: string | null };
let seen: Seen[] = [];

async function record(request: Request): Promise<Seen> {
  const url = new URL(request.url);
  const body =
    request.method === "GET" || request.method === "DELETE" ? url.searchParams.toString() : await request.text();
  const params = Object.fromEntries(new URLSearchParams(body || url.searchParams.toString()));
  const s = { method: request.method, path: url.pathname, params, auth: request.headers.get("authorization") };
  seen.push(s);
  return s;
}

const PRICES: Record<string, string> = {
  pro_subscription_year: "price_pro_y",
  pro_subscription_month: "price_pro_m",
  reports_bundle_year: "price_reports_y",
  lumber_subscription_year: "price_lumber_y",
};

const STRIPE = "https://api.stripe.com";
const server = setupServer(
  http.post(`${STRIPE}/v1/customers`, async ({ request }) => {
    await record(request);
    return HttpResponse.json({ id: "cus_new", object: "customer" });
  }),
  http.get(`${STRIPE}/v1/prices`, async ({ request }) => {
    const s = await record(request);
    const keys = Object.entries(s.params)
      .filter(([k]) => k.startsWith("lookup_keys"))
      .map(([, v]) => v);
    return HttpResponse.json({
      object: "list",
      url: "/v1/prices",
      has_more: false,
      data: keys.filter((k) => PRICES[k]).map((k) => ({ id: PRICES[k], object: "price", lookup_key: k, active: true })),
    });
  }),
  http.post(`${STRIPE}/v1/checkout/sessions`, async ({ request }) => {
    await record(request);
    return HttpResponse.json({
      id: "cs_test_1",
      object: "checkout.session",
      url: "https://checkout.stripe.com/c/pay/cs_test_1",
    });
  }),
  http.post(`${STRIPE}/v1/subscription_items`, async ({ request }) => {
    const s = await record(request);
    return HttpResponse.json({
      id: "si_new",
      object: "subscription_item",
      quantity: Number(s.params.quantity),
      price: { id: s.params.price, lookup_key: "reports_bundle_year" },
    });
  }),
  http.post(`${STRIPE}/v1/subscription_items/:id`, async ({ request, params }) => {
    const s = await record(request);
    return HttpResponse.json({ id: params.id, object: "subscription_item", quantity: Number(s.params.quantity) });
  }),
  http.delete(`${STRIPE}/v1/subscription_items/:id`, async ({ request, params }) => {
    await record(request);
    return HttpResponse.json({ id: params.id, object: "subscription_item", deleted: true });
  }),
  http.post(`${STRIPE}/v1/subscriptions/:id`, async ({ request, params }) => {
    await record(request);
    return HttpResponse.json({ id: params.id, object: "subscription", cancel_at_period_end: true });
  }),
  http.get(`${STRIPE}/v1/invoices`, async ({ request }) => {
    const s = await record(request);
    return HttpResponse.json({
      object: "list",
      url: "/v1/invoices",
      has_more: false,
      data: [
        {
          id: "in_prorate",
          object: "invoice",
          customer: "cus_x",
          subscription: s.params.subscription,
          number: "PP-0042",
          status: "open",
          total: 24167,
          currency: "eur",
          hosted_invoice_url: "https://invoice.stripe.com/i/in_prorate",
          created: 1_790_000_000,
          lines: { object: "list", data: [{ description: "Remaining time on Reports", quantity: 1, amount: 24167 }] },
        },
      ],
    });
  }),
  http.post(`${STRIPE}/v1/invoices/create_preview`, async ({ request }) => {
    await record(request);
    return HttpResponse.json({ object: "invoice", amount_due: 24833, currency: "eur" });
  }),
  http.post(`${STRIPE}/v1/billing_portal/sessions`, async ({ request }) => {
    await record(request);
    return HttpResponse.json({
      id: "bps_1",
      object: "billing_portal.session",
      url: "https://billing.stripe.com/p/session/test_1",
    });
  }),
);

beforeAll(() =>
  server.listen({
    onUnhandledRequest: (req, print) => (new URL(req.url).hostname.endsWith("stripe.com") ? print.error() : undefined),
  }),
);
afterEach(() => {
  server.resetHandlers();
  seen = [];
});
afterAll(() => server.close());

const KEY = "sk_test_adapter";
const APP = "https://timber.example";

async function customer(opts: { withSubscription?: boolean } = {}) {
  const org = await createOrganization({ name: "Pine Port" });
  const user = await createUser(org.id, { role: "admin", email: `admin-${org.id}@pine.test` });
  if (opts.withSubscription) {
    await updateBillingAccount(
      db(),
      { organizationId: org.id },
      {
        provider: "stripe",
        stripe_customer_id: `cus_${org.id}`,
        stripe_subscription_id: `sub_${org.id}`,
        status: "active",
        interval: "year",
        paid_until: new Date(Date.now() + 200 * 86400000),
      },
    );
    await upsertItem(
      db(),
      { organizationId: org.id },
      { package_id: "pro_subscription", quantity: 2, stripe_item_id: "si_pro" },
    );
  }
  return {
    organizationId: org.id,
    organization: { id: org.id, name: "Pine Port", invoice_email: null },
    user: { email: user.email },
  };
}

describe("the Stripe adapter", () => {
  it("checkout creates the customer once and a subscription Checkout session with priced line items and the trial", async () => {
    const c = await customer();
    const provider = createStripeProvider(db(), { secretKey: KEY, appUrl: APP });
    const r = await provider.checkoutSubscription(c, {
      period: 12,
      trial: true,
      line_items: [
        { package_id: "pro_subscription", quantity: 2 },
        { package_id: "lumber_subscription", quantity: 1 },
      ],
    });
    expect(r.redirect_url).toBe("https://checkout.stripe.com/c/pay/cs_test_1");
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      "POST /v1/customers",
      "GET /v1/prices",
      "POST /v1/checkout/sessions",
    ]);
    expect(seen.every((s) => s.auth === `Bearer ${KEY}`)).toBe(true);
    expect(seen[0].params).toMatchObject({
      name: "Pine Port",
      email: c.user.email,
      "metadata[organization_id]": String(c.organizationId),
    });
    expect(Object.values(seen[1].params).sort()).toEqual([
      "100",
      "lumber_subscription_year",
      "pro_subscription_year",
      "true",
    ]);
    const session = seen[2].params;
    expect(session).toMatchObject({
      mode: "subscription",
      customer: "cus_new",
      client_reference_id: String(c.organizationId),
      "line_items[0][price]": "price_pro_y",
      "line_items[0][quantity]": "2",
      "line_items[1][price]": "price_lumber_y",
      "line_items[1][quantity]": "1",
      "subscription_data[metadata][organization_id]": String(c.organizationId),
      success_url: `${APP}/billing?checkout=success`,
      cancel_url: `${APP}/billing?checkout=cancelled`,
    });
    const trialDays = (Number(session["subscription_data[trial_end]"]) * 1000 - Date.now()) / 86400000;
    expect(trialDays).toBeGreaterThan(27);
    expect(trialDays).toBeLessThan(32);
    // The redirect changed nothing but the customer id.
    const account = await getBillingAccount(db(), { organizationId: c.organizationId });
    expect(account).toMatchObject({ stripe_customer_id: "cus_new", status: null });

    seen = [];
    await provider.checkoutPicturePackage(c, "PLAN_50");
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(["POST /v1/checkout/sessions"]);
    expect(seen[0].params).toMatchObject({
      mode: "payment",
      customer: "cus_new",
      "line_items[0][price_data][currency]": "eur",
      "line_items[0][price_data][unit_amount]": "6500",
      "line_items[0][quantity]": "1",
      "metadata[picture_package]": "PLAN_50",
    });
  });

  it("adds, previews, changes and cancels items on the live subscription; opens the customer portal", async () => {
    const c = await customer({ withSubscription: true });
    const sub = `sub_${c.organizationId}`;
    const provider = createStripeProvider(db(), { secretKey: KEY, appUrl: APP });

    const added = await provider.addItem(c, { package_id: "reports_bundle", quantity: 1 });
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      "GET /v1/prices",
      "POST /v1/subscription_items",
      "GET /v1/invoices",
    ]);
    expect(seen[1].params).toEqual({
      subscription: sub,
      price: "price_reports_y",
      quantity: "1",
      proration_behavior: "always_invoice",
      payment_behavior: "allow_incomplete",
    });
    expect(seen[2].params).toEqual({ subscription: sub, limit: "1" });
    // The prorated invoice Stripe raised is the pending invoice of the dialog.
    expect(added.invoice).toMatchObject({
      number: "PP-0042",
      status: "open",
      total: 241.67,
      url: "https://invoice.stripe.com/i/in_prorate",
    });
    expect(
      (await listItems(db(), { organizationId: c.organizationId })).find((i) => i.package_id === "reports_bundle"),
    ).toMatchObject({
      stripe_item_id: "si_new",
      cancelled: false,
    });

    seen = [];
    expect(await provider.preview(c, { package_id: "pro_subscription", quantity: 3 })).toEqual({ amount_due: 248.33 });
    expect(seen[0]).toMatchObject({
      method: "POST",
      path: "/v1/invoices/create_preview",
      params: {
        customer: `cus_${c.organizationId}`,
        subscription: sub,
        "subscription_details[items][0][id]": "si_pro",
        "subscription_details[items][0][quantity]": "3",
        "subscription_details[proration_behavior]": "always_invoice",
      },
    });

    seen = [];
    await provider.updateItem(c, { package_id: "pro_subscription", quantity: 3 });
    expect(seen[0]).toMatchObject({
      method: "POST",
      path: "/v1/subscription_items/si_pro",
      params: { quantity: "3", proration_behavior: "always_invoice" },
    });
    expect(
      (await listItems(db(), { organizationId: c.organizationId })).find((i) => i.package_id === "pro_subscription")
        ?.quantity,
    ).toBe(3);

    seen = [];
    await provider.cancelItem(c, "reports_bundle");
    expect(seen[0]).toMatchObject({
      method: "DELETE",
      path: "/v1/subscription_items/si_new",
      params: { proration_behavior: "none" },
    });
    expect(
      (await listItems(db(), { organizationId: c.organizationId })).find((i) => i.package_id === "reports_bundle")
        ?.cancelled,
    ).toBe(true);

    // The last item: the subscription ends at the period end.
    seen = [];
    await provider.cancelItem(c, "pro_subscription");
    expect(seen[0]).toMatchObject({
      method: "POST",
      path: `/v1/subscriptions/${sub}`,
      params: { cancel_at_period_end: "true" },
    });

    seen = [];
    expect(await provider.customerPortal(c)).toEqual({ portal_url: "https://billing.stripe.com/p/session/test_1" });
    expect(seen[0]).toMatchObject({
      path: "/v1/billing_portal/sessions",
      params: { customer: `cus_${c.organizationId}`, return_url: `${APP}/billing` },
    });
  });
});

// ---- Webhooks ----------------------------------------------------------------------------

const SECRET = "whsec_test_secret";
const signer = new Stripe("sk_test_signer");

function deliver(event: object, opts: { secret?: string; tamper?: boolean } = {}) {
  const payload = JSON.stringify(event);
  const header = signer.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? SECRET });
  const body = opts.tamper ? payload.replace('"quantity":2', '"quantity":200') : payload;
  const request = new Request("http://app.test/api/billing/stripe/webhook", {
    method: "POST",
    body,
    headers: { "stripe-signature": header, "content-type": "application/json" },
  });
  return handleStripeWebhook(db(), request, { webhookSecret: SECRET });
}

let seq = 0;
function event(type: string, object: object) {
  seq += 1;
  return {
    id: `evt_${Date.now()}_${seq}`,
    object: "event",
    type,
    api_version: "2026-10-28",
    created: Math.floor(Date.now() / 1000),
    data: { object },
  };
}

function subscription(
  orgId: number,
  opts: {
    status?: string;
    items?: Array<{ id: string; key: string; quantity: number }>;
    cancelAtPeriodEnd?: boolean;
  } = {},
) {
  const end = Math.floor(Date.now() / 1000) + 300 * 86400;
  return {
    id: `sub_${orgId}`,
    object: "subscription",
    customer: `cus_${orgId}`,
    status: opts.status ?? "active",
    cancel_at_period_end: opts.cancelAtPeriodEnd ?? false,
    collection_method: "charge_automatically",
    currency: "eur",
    trial_end: null,
    metadata: { organization_id: String(orgId) },
    items: {
      object: "list",
      data: (opts.items ?? [{ id: "si_pro", key: "pro_subscription_year", quantity: 2 }]).map((i) => ({
        id: i.id,
        object: "subscription_item",
        quantity: i.quantity,
        current_period_end: end,
        price: { id: `price_${i.key}`, lookup_key: i.key, recurring: { interval: "year" }, metadata: {} },
      })),
    },
  };
}

async function features(orgId: number) {
  return (await db().selectFrom("organizations").select("features").where("id", "=", orgId).executeTakeFirstOrThrow())
    .features;
}

describe("the Stripe webhook", () => {
  it("follows checkout, subscription and invoice events; the features follow the items", async () => {
    const org = await createOrganization();
    let r = await deliver(
      event("checkout.session.completed", {
        id: "cs_1",
        object: "checkout.session",
        mode: "subscription",
        client_reference_id: String(org.id),
        customer: `cus_${org.id}`,
        subscription: `sub_${org.id}`,
        payment_status: "paid",
        metadata: {},
      }),
    );
    expect(r.status).toBe(200);
    expect(await getBillingAccount(db(), { organizationId: org.id })).toMatchObject({
      provider: "stripe",
      stripe_customer_id: `cus_${org.id}`,
      stripe_subscription_id: `sub_${org.id}`,
      status: null,
    });
    expect(await features(org.id)).toEqual([]);

    r = await deliver(
      event(
        "customer.subscription.created",
        subscription(org.id, {
          items: [
            { id: "si_pro", key: "pro_subscription_year", quantity: 2 },
            { id: "si_rep", key: "reports_bundle_year", quantity: 1 },
          ],
        }),
      ),
    );
    expect(await r.json()).toEqual({ received: true, duplicate: false });
    expect(await getBillingAccount(db(), { organizationId: org.id })).toMatchObject({
      status: "active",
      interval: "year",
      billing_currency: "EUR",
    });
    expect(
      (await listItems(db(), { organizationId: org.id })).map((i) => [i.package_id, i.quantity, i.stripe_item_id]),
    ).toEqual([
      ["pro_subscription", 2, "si_pro"],
      ["reports_bundle", 1, "si_rep"],
    ]);
    expect(await features(org.id)).toEqual([
      "inventories",
      "minmax_assortments",
      "mixed_stack_reports",
      "precise_log_by_log_excel",
      "reports",
      "timber_management",
    ]);
    // The app's gates read ctx.features: the enabled_features call answers the same.
    const admin = await createUser(org.id, { role: "admin" });
    expect((await api("/api/web_app/enabled_features", { token: await apiToken(admin.id) })).data.features).toContain(
      "reports",
    );

    await deliver(
      event("invoice.paid", {
        id: "in_1",
        object: "invoice",
        customer: `cus_${org.id}`,
        number: "PP-0001",
        total: 298000,
        currency: "eur",
        status: "paid",
        hosted_invoice_url: "https://invoice.stripe.com/i/in_1",
        created: 1_790_000_000,
        lines: { object: "list", data: [{ description: "2 × Pro", quantity: 2, amount: 298000 }] },
      }),
    );
    const invoice = await db()
      .selectFrom("invoices")
      .selectAll()
      .where("organization_id", "=", org.id)
      .executeTakeFirstOrThrow();
    expect(invoice).toMatchObject({
      number: "PP-0001",
      total_cents: 298000,
      status: "paid",
      stripe_invoice_id: "in_1",
      url: "https://invoice.stripe.com/i/in_1",
    });
    await deliver(
      event("invoice.voided", {
        id: "in_1",
        object: "invoice",
        customer: `cus_${org.id}`,
        number: "PP-0001",
        total: 298000,
        currency: "eur",
        status: "void",
        hosted_invoice_url: null,
        created: 1_790_000_000,
        lines: { object: "list", data: [] },
      }),
    );
    expect(
      (
        await db()
          .selectFrom("invoices")
          .select("status")
          .where("stripe_invoice_id", "=", "in_1")
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe("void");

    r = await deliver(event("customer.subscription.deleted", subscription(org.id, { status: "canceled" })));
    expect(r.status).toBe(200);
    expect((await getBillingAccount(db(), { organizationId: org.id }))?.status).toBe("canceled");
    expect(await listItems(db(), { organizationId: org.id })).toEqual([]);
    expect(await features(org.id)).toEqual([]);
  });

  it("a replayed event changes nothing, even after later events", async () => {
    const org = await createOrganization();
    const first = event(
      "customer.subscription.updated",
      subscription(org.id, { items: [{ id: "si_pro", key: "pro_subscription_year", quantity: 2 }] }),
    );
    await deliver(first);
    await deliver(
      event(
        "customer.subscription.updated",
        subscription(org.id, { items: [{ id: "si_pro", key: "pro_subscription_year", quantity: 5 }] }),
      ),
    );
    const picture = event("checkout.session.completed", {
      id: "cs_p",
      object: "checkout.session",
      mode: "payment",
      payment_status: "paid",
      client_reference_id: String(org.id),
      customer: `cus_${org.id}`,
      amount_total: 22000,
      metadata: { picture_package: "PLAN_200" },
    });
    await deliver(picture);
    expect((await getBillingAccount(db(), { organizationId: org.id }))?.remaining_measurements).toBe(200);

    const before = await snapshotTables();
    for (const e of [first, picture]) {
      const r = await deliver(e);
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ received: true, duplicate: true });
    }
    expect(await snapshotTables()).toEqual(before);
    expect((await listItems(db(), { organizationId: org.id }))[0].quantity).toBe(5);
    expect((await getBillingAccount(db(), { organizationId: org.id }))?.remaining_measurements).toBe(200);
  });

  it("answers 400 to a bad signature or a tampered body and changes nothing", async () => {
    const org = await createOrganization();
    const before = await snapshotTables();
    const e = event("customer.subscription.created", subscription(org.id));
    for (const r of [await deliver(e, { secret: "whsec_wrong" }), await deliver(e, { tamper: true })]) {
      expect(r.status).toBe(400);
      expect(await r.json()).toEqual({ error: "invalid_signature" });
    }
    const missing = await handleStripeWebhook(
      db(),
      new Request("http://app.test/", { method: "POST", body: JSON.stringify(e) }),
      { webhookSecret: SECRET },
    );
    expect(missing.status).toBe(400);
    expect(await snapshotTables()).toEqual(before);
    // The same event, correctly signed, is then applied.
    expect((await deliver(e)).status).toBe(200);
    expect((await getBillingAccount(db(), { organizationId: org.id }))?.status).toBe("active");
  });

  it("an item removed in Stripe but cancelled here keeps its features until the period ends", async () => {
    const org = await createOrganization();
    await deliver(
      event(
        "customer.subscription.updated",
        subscription(org.id, {
          items: [
            { id: "si_pro", key: "pro_subscription_year", quantity: 1 },
            { id: "si_rep", key: "reports_bundle_year", quantity: 1 },
          ],
        }),
      ),
    );
    await db()
      .updateTable("subscription_items")
      .set({ cancelled: true })
      .where("organization_id", "=", org.id)
      .where("package_id", "=", "reports_bundle")
      .execute();
    await deliver(
      event(
        "customer.subscription.updated",
        subscription(org.id, { items: [{ id: "si_pro", key: "pro_subscription_year", quantity: 1 }] }),
      ),
    );
    expect((await listItems(db(), { organizationId: org.id })).map((i) => [i.package_id, i.cancelled])).toEqual([
      ["pro_subscription", false],
      ["reports_bundle", true],
    ]);
    expect(await features(org.id)).toContain("reports");
  });

  it("the running app without STRIPE_WEBHOOK_SECRET does not accept webhooks", async () => {
    const r = await api("/api/billing/stripe/webhook", { json: { id: "evt_x" } });
    expect(r).toMatchObject({ status: 404, data: { error: "webhooks_not_configured" } });
  });
});
