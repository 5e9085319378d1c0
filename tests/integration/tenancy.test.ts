import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { db } from "~/utils/db.server";
import { apiToken, createMeasurement, createOrganization, createStorage, createUser } from "#tests/factories";
import { api } from "#tests/helpers/http";
import { expectOutsiderGets404 } from "#tests/helpers/tenancy";

/**
 * Every API route must say how it keeps organisations apart, and the check runs here:
 * - "id": a user of another organisation asking for this organisation's record gets 404 and nothing changes;
 * - "list": another organisation's user sees none of this organisation's rows;
 * - "own": the route only ever acts on the caller's own session, account or channels (tested in its own file);
 * - "public": no organisation data (sign-in, device pairing).
 * A new route file without an entry fails the first test.
 */
type World = { organizationId: number; storageId: number; measurementId: number; exportId: number; marker: string };
type Check =
  | { kind: "id"; call: (w: World, token: string) => Promise<{ status: number; data: unknown }> }
  | { kind: "list"; path: string }
  | { kind: "own" | "public"; why: string };

const ROUTES: Record<string, Check> = {
  "api.web_app.logins.ts": { kind: "public", why: "signs in; answers a token for the credentials' owner" },
  "api.web_app.logout.ts": { kind: "own", why: "revokes the token it was called with" },
  "api.web_app.account.ts": { kind: "own", why: "the caller's own account" },
  "api.web_app.organizations.ts": { kind: "own", why: "the caller's own memberships" },
  "api.web_app.realtime.token.ts": { kind: "own", why: "token limited to the caller's channels" },
  "realtime.ts": { kind: "own", why: "only the caller's user and organisation channels (realtime.test.ts)" },
  "api.web_app.volume_formulas.ts": { kind: "public", why: "the built-in formulas, the same for everyone" },
  "api.web_app.$.ts": { kind: "public", why: "404 for unknown paths" },
  "api.device.pairings.ts": { kind: "public", why: "pairs by an activation code; answers the code's organisation only" },
  "api.device.$.ts": { kind: "public", why: "404 for unknown device paths" },
  "api.web_app.storages.list.ts": { kind: "list", path: "/api/web_app/storages/list" },
  "api.web_app.assortments.ts": { kind: "list", path: "/api/web_app/assortments" },
  "api.web_app.wood_types.ts": { kind: "list", path: "/api/web_app/wood_types" },
  "api.web_app.wood_qualities.ts": { kind: "list", path: "/api/web_app/wood_qualities" },
  // Screens and pages outside the shell, and screens that take an id.
  "_index.tsx": { kind: "own", why: "redirects the signed-in user to their own measurements" },
  "login.tsx": { kind: "public", why: "the sign-in form" },
  "logout.tsx": { kind: "own", why: "revokes the caller's own session" },
  "locales.$lng.ts": { kind: "public", why: "translations" },
  "healthcheck.ts": { kind: "public", why: "database status only" },
  "_app.$.tsx": { kind: "own", why: "planned screens and not-found, no records" },
  "banners.dismiss.ts": { kind: "own", why: "a cookie remembering which banner the caller dismissed" },
  "print.measurements.tsx": { kind: "public", why: "opened only with a signed print token bound to one export of one organisation (exports-api tests)" },
  "_app.billing.checkout.$token.tsx": { kind: "own", why: "a local checkout token is looked up within the caller's organisation only (billing tests)" },
  // Billing: every call acts on the caller's organisation's own subscription.
  "api.billing.stripe.webhook.ts": { kind: "public", why: "Stripe's signed webhook; maps events to organisations by Stripe customer id" },
  "api.web_app.pricing.ts": { kind: "public", why: "the price list, the same for everyone" },
  "api.web_app.enabled_features.ts": { kind: "own", why: "the caller's organisation's features" },
  "api.web_app.checkout.subscription.ts": { kind: "own", why: "checkout for the caller's organisation" },
  "api.web_app.checkout.picture_package.ts": { kind: "own", why: "checkout for the caller's organisation" },
  "api.web_app.customer_portal.ts": { kind: "own", why: "the caller's organisation's billing portal" },
  "api.web_app.subscription.items.ts": { kind: "own", why: "the caller's organisation's items" },
  "api.web_app.subscription.items.$package_id.ts": { kind: "own", why: "keyed by package within the caller's organisation" },
  "api.web_app.subscription.items.preview.ts": { kind: "own", why: "the caller's organisation's upcoming invoice" },
  "api.web_app.subscription.invoices.ts": { kind: "list", path: "/api/web_app/subscription/invoices" },
  // Exports.
  "api.web_app.excel_exports.ts": { kind: "list", path: "/api/web_app/excel_exports" },
  "api.web_app.pdf_exports.ts": { kind: "list", path: "/api/web_app/pdf_exports" },
  "api.web_app.excel_exports.$id.ts": { kind: "id", call: (w, token) => api(`/api/web_app/excel_exports/${w.exportId}`, { token, method: "DELETE" }) },
  "api.web_app.pdf_exports.$id.ts": { kind: "id", call: (w, token) => api(`/api/web_app/pdf_exports/${w.exportId}`, { token, method: "DELETE" }) },
  "exports.$id.download.ts": { kind: "id", call: (w, token) => api(`/exports/${w.exportId}/download`, { token }) },
  "api.web_app.users.switch_organization.$id.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/users/switch_organization/${w.organizationId}`, { method: "PATCH", token }),
  },
  "files.measurements.$id.$variant.ts": {
    kind: "id",
    call: (w, token) => api(`/files/measurements/${w.measurementId}/original`, { token }),
  },
};

// Everything outside the signed-in shell, and every route that takes a parameter.
const needsCheck = (file: string) => /\.(ts|tsx)$/.test(file) && !file.endsWith(".test.ts") && (!file.startsWith("_app.") || file.includes("$"));

async function world(): Promise<World> {
  const marker = `secret-${Math.random().toString(36).slice(2)}`;
  const org = await createOrganization({ name: marker });
  await createUser(org.id, { role: "admin" });
  const storage = await createStorage(org.id, { name: `${marker} yard` });
  const m = await createMeasurement(org.id, storage.id);
  await db().updateTable("measurements").set({ photo_key: "organizations/0/missing.jpg" }).where("id", "=", m.id).execute();
  await db().insertInto("assortments").values({ organization_id: org.id, name: `${marker} sawlog` }).execute();
  await db().insertInto("wood_types").values({ organization_id: org.id, name: `${marker} species` }).execute();
  await db().insertInto("wood_qualities").values({ organization_id: org.id, name: `${marker} grade` }).execute();
  const exp = await db()
    .insertInto("exports")
    .values({ organization_id: org.id, kind: "excel", report_type: "log_by_log_excel", name: `${marker} export`, params: JSON.stringify({ storage_id: storage.id }), status: 1, file_key: "organizations/0/missing.xlsx" })
    .executeTakeFirstOrThrow();
  return { organizationId: org.id, storageId: storage.id, measurementId: m.id, exportId: Number(exp.insertId), marker };
}

describe("tenancy of every API route", () => {
  const files = fs.readdirSync("app/routes").filter(needsCheck);

  it("every API and file route has a tenancy check", () => {
    expect(files.filter((f) => !(f in ROUTES))).toEqual([]);
    expect(Object.keys(ROUTES).filter((f) => !files.includes(f))).toEqual([]);
  });

  for (const [file, check] of Object.entries(ROUTES)) {
    if (check.kind === "id") {
      it(`${file}: another organisation's record answers 404 and nothing changes`, async () => {
        const w = await world();
        await expectOutsiderGets404(({ token }) => check.call(w, token));
      });
    }
    if (check.kind === "list") {
      it(`${file}: lists none of another organisation's rows`, async () => {
        const w = await world();
        const other = await createOrganization();
        const user = await createUser(other.id, { role: "admin" });
        const { status, data } = await api(check.path, { token: await apiToken(user.id) });
        expect(status).toBe(200);
        expect(JSON.stringify(data)).not.toContain(w.marker);
      });
    }
  }
});
