import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  apiToken,
  createCustomField,
  createDevice,
  createLumberMeasurement,
  createMeasurement,
  createOrganization,
  createStorage,
  createTruckMeasurement,
  createTruckRoute,
  createUser,
} from "#tests/factories";
import { createBill, createContainer, createContainerMeasurement } from "#tests/helpers/containers";
import { snapshotTables } from "#tests/helpers/db";
import { api } from "#tests/helpers/http";
import { routeFiles } from "#tests/helpers/route-files";
import { expectOutsiderGets404 } from "#tests/helpers/tenancy";
import { db } from "~/utils/db.server";

/**
 * Every API route must say how it keeps organisations apart, and the check runs here:
 * - "id": a user of another organisation asking for this organisation's record gets 404 and nothing changes;
 * - "list": another organisation's user sees none of this organisation's rows;
 * - "body-id": an id in the payload that belongs to another organisation is answered exactly as
 *   an id that does not exist, and nothing changes;
 * - "own": the route only ever acts on the caller's own session, account or channels (tested in its own file);
 * - "public": no organisation data (sign-in, device pairing);
 * - "token": a public page or read opened by a public link's token, which grants one record
 *   read-only and nothing else (app/utils/public-route.server.ts; tests/integration/public-links.test.ts).
 * A new route file without an entry fails the first test (route files are keyed by their path
 * under app/routes, as remix.config.js finds them).
 */
type World = {
  organizationId: number;
  storageId: number;
  measurementId: number;
  exportId: number;
  userId: number;
  roleId: number;
  deviceId: number;
  customFieldId: number;
  customFieldValueId: number;
  assortmentId: number;
  cullId: number;
  woodTypeId: number;
  woodQualityId: number;
  lumberProductId: number;
  diameterProfileId: number;
  lumberMeasurementId: number;
  inventoryId: number;
  truckMeasurementId: number;
  truckRouteId: number;
  analyzeReportId: number;
  analyzeCaseId: number;
  mixedStackReportId: number;
  billOfLadingId: number;
  containerId: number;
  containerMeasurementId: number;
  shipmentId: number;
  truckDiameterId: number;
  reportId: number;
  marker: string;
};
type Check =
  | { kind: "id"; call: (w: World, token: string, cookie: string) => Promise<{ status: number; data: unknown }> }
  // cmpc: the caller's organisation is flagged for the shipments dashboard (issue 22).
  | { kind: "list"; path: string; features?: string[]; json?: unknown; cmpc?: boolean }
  | { kind: "device-list"; path: string }
  // An id inside the body: another organisation's answers exactly like one that does not exist.
  | {
      kind: "body-id";
      call: (w: World, token: string, id: number) => Promise<{ status: number; data: unknown }>;
      id: keyof World;
    }
  | { kind: "own" | "public" | "token"; why: string };

const ROUTES: Record<string, Check> = {
  "api+/web_app+/logins+/_route.ts": { kind: "public", why: "signs in; answers a token for the credentials' owner" },
  "api+/web_app+/logout.ts": { kind: "own", why: "revokes the token it was called with" },
  "api+/web_app+/account.ts": { kind: "own", why: "the caller's own account" },
  "api+/web_app+/organizations+/_route.ts": { kind: "own", why: "the caller's own memberships" },
  "api+/web_app+/realtime.token.ts": { kind: "own", why: "token limited to the caller's channels" },
  "realtime.ts": { kind: "own", why: "only the caller's user and organisation channels (realtime.test.ts)" },
  "api+/web_app+/volume_formulas.ts": { kind: "public", why: "the built-in formulas, the same for everyone" },
  "api+/web_app+/$.ts": { kind: "public", why: "404 for unknown paths" },
  "api+/openapi[.json].ts": { kind: "public", why: "the API's description, no organisation data (decision 024)" },
  "api+/docs.ts": { kind: "public", why: "the API's description as a page, no organisation data (decision 024)" },
  "api+/device+/pairings.ts": {
    kind: "public",
    why: "pairs by an activation code; answers the code's organisation only",
  },
  "api+/device+/$.ts": { kind: "public", why: "404 for unknown device paths" },
  "api+/web_app+/storages+/list.ts": { kind: "list", path: "/api/web_app/storages/list" },
  "api+/web_app+/assortments+/_route.ts": { kind: "list", path: "/api/web_app/assortments" },
  "api+/web_app+/wood_types+/_route.ts": { kind: "list", path: "/api/web_app/wood_types" },
  "api+/web_app+/wood_qualities+/_route.ts": { kind: "list", path: "/api/web_app/wood_qualities" },
  // Screens and pages outside the shell, and screens that take an id.
  "_index.tsx": { kind: "own", why: "redirects the signed-in user to their own measurements" },
  "_auth+/login.tsx": { kind: "public", why: "the sign-in form" },
  "_auth+/logout.tsx": { kind: "own", why: "revokes the caller's own session" },
  "locales.$lng.ts": { kind: "public", why: "translations" },
  "healthcheck.ts": { kind: "public", why: "database status only" },
  "healthcheck_.live.ts": { kind: "public", why: "liveness: answers ok, reads nothing" },
  "healthcheck_.ready.ts": { kind: "public", why: "readiness: database status only" },
  "metrics.ts": { kind: "public", why: "process metrics, no organisation data; 404 without METRICS_TOKEN" },
  "_app+/$.tsx": { kind: "own", why: "the not-found notice, no records" },
  "banners.dismiss.ts": { kind: "own", why: "a cookie remembering which banner the caller dismissed" },
  // Public links: each route resolves its token through requirePublicGrant to one record of its kind.
  "_public+/_layout.tsx": { kind: "public", why: "the public pages' frame: product name and language menu" },
  "_public+/public_measurement.$token.tsx": { kind: "token", why: "one shared measurement" },
  "_public+/vmu_public.$token.tsx": { kind: "token", why: "one shared measurement of a vmu organisation" },
  "_public+/public_measurement.$token[.jpeg].ts": { kind: "token", why: "the picture of one shared measurement" },
  "_public+/public_measurement.$token_.photo.ts": { kind: "token", why: "the photo of one shared measurement" },
  "_public+/public_storage.$token.tsx": { kind: "token", why: "one shared storage" },
  "_public+/public_storage.$token_.thumbnails.$id.ts": {
    kind: "token",
    why: "a thumbnail of a measurement of the shared storage only",
  },
  "api+/web_app+/measurements+/public.$token.ts": { kind: "token", why: "one shared measurement" },
  "api+/web_app+/storages+/public.$token.$page.ts": { kind: "token", why: "one shared storage" },
  "print+/measurements.tsx": {
    kind: "public",
    why: "opened only with a signed print token bound to one export of one organisation (exports-api tests)",
  },
  "print+/truck_measurements.tsx": {
    kind: "public",
    why: "opened only with a signed print token bound to one export of one organisation (trucks-exports tests)",
  },
  "print+/labels.tsx": {
    kind: "public",
    why: "opened only with a signed print token bound to one QR labels export of one organisation (qr-labels tests)",
  },
  "print+/reports.tsx": {
    kind: "public",
    why: "opened only with a signed print token bound to one report PDF export of one organisation (report-exports tests)",
  },
  "_app+/billing+/checkout.$token.tsx": {
    kind: "own",
    why: "a local checkout token is looked up within the caller's organisation only (billing tests)",
  },
  // Billing: every call acts on the caller's organisation's own subscription.
  "api+/billing.stripe.webhook.ts": {
    kind: "public",
    why: "Stripe's signed webhook; maps events to organisations by Stripe customer id",
  },
  "api+/web_app+/pricing.ts": { kind: "public", why: "the price list, the same for everyone" },
  "api+/web_app+/enabled_features.ts": { kind: "own", why: "the caller's organisation's features" },
  "api+/web_app+/checkout+/subscription.ts": { kind: "own", why: "checkout for the caller's organisation" },
  "api+/web_app+/checkout+/picture_package.ts": { kind: "own", why: "checkout for the caller's organisation" },
  "api+/web_app+/customer_portal.ts": { kind: "own", why: "the caller's organisation's billing portal" },
  "api+/web_app+/subscription+/items.ts": { kind: "own", why: "the caller's organisation's items" },
  "api+/web_app+/subscription+/items.$package_id.ts": {
    kind: "own",
    why: "keyed by package within the caller's organisation",
  },
  "api+/web_app+/subscription+/items.preview.ts": { kind: "own", why: "the caller's organisation's upcoming invoice" },
  "api+/web_app+/subscription+/invoices.ts": { kind: "list", path: "/api/web_app/subscription/invoices" },
  // Exports.
  "api+/web_app+/excel_exports+/_route.ts": { kind: "list", path: "/api/web_app/excel_exports" },
  "api+/web_app+/pdf_exports+/_route.ts": { kind: "list", path: "/api/web_app/pdf_exports" },
  "api+/web_app+/excel_exports+/$id.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/excel_exports/${w.exportId}`, { token, method: "DELETE" }),
  },
  "api+/web_app+/pdf_exports+/$id.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/pdf_exports/${w.exportId}`, { token, method: "DELETE" }),
  },
  // Duplicate analysis (issue 19): the outsider is an admin with the feature checked after the lookup.
  "api+/web_app+/analyze_reports+/_route.ts": {
    kind: "list",
    path: "/api/web_app/analyze_reports",
    features: ["duplicate_storage_measurements"],
  },
  "api+/web_app+/analyze_reports+/$id.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/analyze_reports/${w.analyzeReportId}`, { token }),
  },
  "api+/web_app+/analyze_reports+/$analyze_report_id.cases.$id.resolve.ts": {
    kind: "id",
    call: (w, token) =>
      api(`/api/web_app/analyze_reports/${w.analyzeReportId}/cases/${w.analyzeCaseId}/resolve`, {
        token,
        method: "POST",
      }),
  },
  "_app+/analyze_reports+/$id.tsx": {
    kind: "id",
    call: (w, _t, cookie) => api(`/analyze_reports/${w.analyzeReportId}`, { cookie }),
  },
  "exports.$id.download.ts": { kind: "id", call: (w, token) => api(`/exports/${w.exportId}/download`, { token }) },
  // Accounts (issue 4).
  "_auth+/register.tsx": { kind: "public", why: "creates a new organisation" },
  "_auth+/verification.tsx": { kind: "own", why: "the caller's own e-mail verification" },
  "_auth+/setup.tsx": { kind: "own", why: "shows the caller's organisation's device key" },
  "_auth+/accept_invitation.$token.tsx": { kind: "public", why: "a single-use invitation token, stored hashed" },
  "_auth+/join.$token.tsx": { kind: "public", why: "a single-use membership invitation token, stored hashed" },
  "_auth+/reset_password.$token.tsx": { kind: "public", why: "a single-use reset token, stored hashed" },
  "api+/web_app+/registration.ts": { kind: "public", why: "creates a new organisation" },
  "api+/web_app+/logins+/otp.ts": { kind: "public", why: "second sign-in step for the credentials' owner" },
  "api+/web_app+/logins+/forgot_password.ts": {
    kind: "public",
    why: "mails the address's owner, answers the same either way",
  },
  "api+/web_app+/logins+/reset_password.ts": {
    kind: "public",
    why: "a reset token or the caller's own current password",
  },
  "api+/web_app+/users+/accept_invitation.ts": { kind: "public", why: "a single-use invitation token" },
  "api+/web_app+/users+/resend_verification.ts": { kind: "own", why: "the caller's own verification mail" },
  "api+/web_app+/two_factors.ts": { kind: "own", why: "the caller's own two-factor setting" },
  "api+/web_app+/users+/invite_user.ts": { kind: "own", why: "invites into the caller's organisation" },
  "api+/web_app+/devices+/send_invite.ts": { kind: "own", why: "invites a device into the caller's organisation" },
  "api+/web_app+/storage_groups.ts": { kind: "list", path: "/api/web_app/storage_groups" },
  "api+/web_app+/users+/_route.ts": { kind: "list", path: "/api/web_app/users" },
  "api+/web_app+/devices+/_route.ts": { kind: "list", path: "/api/web_app/devices" },
  "api+/web_app+/devices+/list.ts": { kind: "list", path: "/api/web_app/devices/list" },
  "api+/web_app+/custom_fields+/_route.ts": { kind: "list", path: "/api/web_app/custom_fields" },
  "api+/web_app+/culls+/_route.ts": { kind: "list", path: "/api/web_app/culls" },
  "api+/web_app+/diameter_profiles+/_route.ts": {
    kind: "list",
    path: "/api/web_app/diameter_profiles",
    features: ["diameter_profiles"],
  },
  "api+/web_app+/lumber_products+/_route.ts": { kind: "list", path: "/api/web_app/lumber_products" },
  "api+/web_app+/users+/$id.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/users/${w.userId}`, { token, method: "DELETE" }),
  },
  "api+/web_app+/roles+/$id.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/roles/${w.roleId}`, { token, method: "DELETE" }),
  },
  "api+/web_app+/roles+/_route.ts": {
    kind: "id",
    call: (w, token) =>
      api("/api/web_app/roles", {
        token,
        json: { role: { name: "admin", user_id: w.userId, organization_id: w.organizationId } },
      }),
  },
  "api+/web_app+/organizations+/$id.ts": {
    kind: "id",
    call: (w, token) =>
      api(`/api/web_app/organizations/${w.organizationId}`, {
        token,
        method: "PATCH",
        json: { organization: { name: "Taken over" } },
      }),
  },
  "api+/web_app+/devices+/$id.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/devices/${w.deviceId}`, { token, method: "DELETE" }),
  },
  "api+/web_app+/custom_fields+/$id.ts": {
    kind: "id",
    call: (w, token) =>
      api(`/api/web_app/custom_fields/${w.customFieldId}`, {
        token,
        method: "PATCH",
        json: { custom_field: { name: "Renamed" } },
      }),
  },
  "api+/web_app+/custom_fields+/$id.values.ts": {
    kind: "id",
    call: (w, token) =>
      api(`/api/web_app/custom_fields/${w.customFieldId}/values`, {
        token,
        json: { custom_field_value: { value: "New", rank: 1 } },
      }),
  },
  "api+/web_app+/custom_fields+/values.$id.ts": {
    kind: "id",
    call: (w, token) =>
      api(`/api/web_app/custom_fields/values/${w.customFieldValueId}`, {
        token,
        method: "PATCH",
        json: { custom_field_value: { value: "Changed" } },
      }),
  },
  "api+/web_app+/assortments+/$id.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/assortments/${w.assortmentId}`, { token, method: "DELETE" }),
  },
  "api+/web_app+/culls+/$id.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/culls/${w.cullId}`, { token, method: "DELETE" }),
  },
  "api+/web_app+/wood_types+/$id.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/wood_types/${w.woodTypeId}`, { token, method: "DELETE" }),
  },
  "api+/web_app+/wood_qualities+/$id.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/wood_qualities/${w.woodQualityId}`, { token, method: "DELETE" }),
  },
  "api+/web_app+/lumber_products+/$id.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/lumber_products/${w.lumberProductId}`, { token, method: "DELETE" }),
  },
  "api+/web_app+/diameter_profiles+/$id.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/diameter_profiles/${w.diameterProfileId}`, { token, method: "DELETE" }),
  },
  "_app+/users+/$id.tsx": { kind: "id", call: (w, _t, cookie) => api(`/users/${w.userId}`, { cookie }) },
  "_app+/devices+/$id.tsx": { kind: "id", call: (w, _t, cookie) => api(`/devices/${w.deviceId}`, { cookie }) },
  "_app+/custom_fields+/$id.tsx": {
    kind: "id",
    call: (w, _t, cookie) => api(`/custom_fields/${w.customFieldId}`, { cookie }),
  },
  "_app+/timber+/$kind.$id.tsx": { kind: "id", call: (w, _t, cookie) => api(`/timber/culls/${w.cullId}`, { cookie }) },
  "_app+/timber+/$kind._index.tsx": {
    kind: "own",
    why: "lists the caller's organisation's master data by kind (accounts tests)",
  },
  "_app+/timber+/$kind.new.tsx": { kind: "own", why: "creates in the caller's organisation" },
  // Timber measuring (issue 6).
  "api+/device+/storages.ts": { kind: "device-list", path: "/api/device/storages" },
  "api+/device+/lookups.ts": { kind: "device-list", path: "/api/device/lookups" },
  "api+/device+/measurements.ts": {
    kind: "own",
    why: "uploads only into the device's own organisation's allowed storages (timber-device-api tests)",
  },
  "api+/device+/lumber_measurements.ts": {
    kind: "own",
    why: "uploads only into the device's own organisation's allowed storages (lumber-device-api tests)",
  },
  "api+/web_app+/dashboard_filter+/_route.ts": { kind: "list", path: "/api/web_app/dashboard_filter" },
  "api+/web_app+/measurements+/search.ts": {
    kind: "own",
    why: "searches the caller's organisation's measurements (timber-web-api tests)",
  },
  "api+/web_app+/measurements+/deleted.ts": {
    kind: "own",
    why: "the caller's organisation's deleted measurements (timber-web-api tests)",
  },
  "api+/web_app+/measurements+/$id.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/measurements/${w.measurementId}`, { token }),
  },
  "api+/web_app+/measurements+/$id.history.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/measurements/${w.measurementId}/history`, { token }),
  },
  "api+/web_app+/measurements+/markers.storage.$id.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/measurements/markers/storage/${w.storageId}`, { token }),
  },
  "api+/web_app+/storages+/$id.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/storages/${w.storageId}`, { token, method: "DELETE" }),
  },
  "api+/web_app+/measurements+/_index.ts": {
    kind: "id",
    call: (w, token) =>
      api("/api/web_app/measurements", { token, method: "DELETE", json: { measurement_ids: [w.measurementId] } }),
  },
  "api+/web_app+/measurements+/move_storage.ts": {
    kind: "id",
    call: (w, token) =>
      api("/api/web_app/measurements/move_storage", {
        token,
        method: "PATCH",
        json: { move_storage: [{ measurement_id: w.measurementId, storage_id: w.storageId }] },
      }),
  },
  "api+/web_app+/inventories+/_route.ts": {
    kind: "list",
    path: "/api/web_app/inventories",
    features: ["inventories"],
  },
  "api+/web_app+/inventories+/$id.confirm.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/inventories/${w.inventoryId}/confirm`, { token, method: "POST" }),
  },
  "api+/web_app+/manual_measurements.ts": {
    kind: "body-id",
    id: "storageId",
    call: (_w, token, id) =>
      api("/api/web_app/manual_measurements", {
        token,
        json: {
          manual_measurement: { storage_id: id, taken_at: "2026-01-05T10:00:00Z", measurement_type_id: 0, volume: 3 },
        },
      }),
  },
  "_app+/measurement.$id.tsx": {
    kind: "id",
    call: (w, _t, cookie) => api(`/measurement/${w.measurementId}`, { cookie }),
  },
  "_app+/measurements+/timber+/$id.tsx": {
    kind: "id",
    call: (w, _t, cookie) => api(`/measurements/timber/${w.measurementId}`, { cookie }),
  },
  // Mixed stack reports: the report of the path is looked up in the caller's organisation first.
  "api+/web_app+/mixed_stack_reports+/_route.ts": {
    kind: "list",
    path: "/api/web_app/mixed_stack_reports",
    features: ["mixed_stack_reports"],
  },
  "api+/web_app+/mixed_stack_reports+/$id.ts": {
    kind: "id",
    call: (w, token) =>
      api(`/api/web_app/mixed_stack_reports/${w.mixedStackReportId}`, {
        method: "PATCH",
        token,
        json: { name: "taken over", total_delivery_tons: 1 },
      }),
  },
  "api+/web_app+/mixed_stack_reports+/$id.add_measurements.ts": {
    kind: "id",
    call: (w, token) =>
      api(`/api/web_app/mixed_stack_reports/${w.mixedStackReportId}/add_measurements`, {
        token,
        json: { category: "close_up", measurement_ids: [w.measurementId] },
      }),
  },
  "api+/web_app+/mixed_stack_reports+/$id.remove_measurements.ts": {
    kind: "id",
    call: (w, token) =>
      api(`/api/web_app/mixed_stack_reports/${w.mixedStackReportId}/remove_measurements`, {
        token,
        json: { measurement_ids: [w.measurementId] },
      }),
  },
  "api+/web_app+/mixed_stack_reports+/public.$token.ts": { kind: "token", why: "one shared mixed stack report" },
  "_public+/mixed_stack_report.public.$token.tsx": { kind: "token", why: "one shared mixed stack report" },
  "_public+/mixed_stack_report.public.$token_.thumbnails.$id.ts": {
    kind: "token",
    why: "a thumbnail of a measurement in the shared mixed stack report only",
  },
  "api+/web_app+/containers+/container.public.$token.ts": { kind: "token", why: "one shared container" },
  "api+/web_app+/containers+/bill_of_ladings.public.$token.ts": { kind: "token", why: "one shared bill of lading" },
  "_public+/public_container.$token.tsx": { kind: "token", why: "one shared container" },
  "_public+/public_container.$token_.thumbnails.$id.ts": {
    kind: "token",
    why: "a thumbnail of a live measurement of the shared container only",
  },
  "_public+/public_bill_of_lading.$token.tsx": { kind: "token", why: "one shared bill of lading" },
  "_public+/public_bill_of_lading.$token_.thumbnails.$id.ts": {
    kind: "token",
    why: "a thumbnail of a live measurement in a container of the shared bill only",
  },
  "_app+/reports+/mixed-stack+/$id.tsx": {
    kind: "id",
    call: (w, _t, cookie) => api(`/reports/mixed-stack/${w.mixedStackReportId}`, { cookie }),
  },
  "_app+/mixed_stack_reports.$id.tsx": {
    kind: "id",
    call: (w, _t, cookie) => api(`/mixed_stack_reports/${w.mixedStackReportId}`, { cookie }),
  },
  // Reports (issue 17): the report of the path is looked up first (owner, or the recipient's
  // admins; tests/integration/reports.test.ts covers the recipient and a third organisation).
  "api+/web_app+/reports+/_route.ts": { kind: "list", path: "/api/web_app/reports", features: ["reports"] },
  "api+/web_app+/reports+/$id.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/reports/${w.reportId}`, { token }),
  },
  "api+/web_app+/reports+/$id.confirm.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/reports/${w.reportId}/confirm`, { method: "PATCH", token }),
  },
  "api+/web_app+/reports+/$id.add_measurements.ts": {
    kind: "id",
    call: (w, token) =>
      api(`/api/web_app/reports/${w.reportId}/add_measurements`, {
        method: "PATCH",
        token,
        json: { measurement_ids: [w.measurementId] },
      }),
  },
  "api+/web_app+/reports+/$reportId.storage.$storageId.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/reports/${w.reportId}/storage/${w.storageId}`, { method: "PATCH", token }),
  },
  "api+/web_app+/reports+/storage.$id.ts": {
    kind: "id",
    call: (w, token) =>
      api(`/api/web_app/reports/storage/${w.storageId}`, { token, json: { volume_formula: "cylinder" } }),
  },
  "_app+/reports+/$id.tsx": { kind: "id", call: (w, _t, cookie) => api(`/reports/${w.reportId}`, { cookie }) },
  "reports.$id.thumbnails.$measurementId.ts": {
    kind: "id",
    call: (w, _t, cookie) => api(`/reports/${w.reportId}/thumbnails/${w.measurementId}`, { cookie }),
  },
  "_app+/storages+/$id.tsx": { kind: "id", call: (w, _t, cookie) => api(`/storages/${w.storageId}`, { cookie }) },
  "api+/web_app+/users+/switch_organization.$id.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/users/switch_organization/${w.organizationId}`, { method: "PATCH", token }),
  },
  // Photos of every measurement kind: /files/measurements/..., /files/lumber_measurements/...
  "files+/$folder.$id.$variant.ts": {
    kind: "id",
    call: (w, token) => api(`/files/measurements/${w.measurementId}/original`, { token }),
  },
  // Lumber measurements.
  // Trucks (issue 21).
  "api+/web_app+/truck_measurements+/_route.ts": {
    kind: "id",
    call: (w, token) =>
      api("/api/web_app/truck_measurements", {
        token,
        method: "DELETE",
        json: { measurement_ids: [w.truckMeasurementId] },
      }),
  },
  "api+/web_app+/truck_measurements+/$id.ts": {
    kind: "id",
    call: (w, token) =>
      api(`/api/web_app/truck_measurements/${w.truckMeasurementId}`, {
        token,
        method: "PATCH",
        json: { weight: 1, loads: [{ height: -1 }] },
      }),
  },
  "api+/web_app+/truck_diameter_measurements.ts": {
    kind: "id",
    call: (w, token) =>
      api("/api/web_app/truck_diameter_measurements", {
        token,
        method: "DELETE",
        json: { measurement_ids: [w.truckDiameterId] },
      }),
  },
  "_app+/measurements+/truck+/$id_.edit.tsx": {
    kind: "id",
    call: (w, _t, cookie) => api(`/measurements/truck/${w.truckMeasurementId}/edit`, { cookie }),
  },
  "api+/web_app+/truck_measurements+/$id.routes.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/truck_measurements/${w.truckMeasurementId}/routes`, { token }),
  },
  "api+/web_app+/truck_measurements+/search.ts": {
    kind: "id",
    call: (w, token) =>
      api("/api/web_app/truck_measurements/search", { token, json: { q: { f: { storage_id: w.storageId } } } }),
  },
  "api+/web_app+/truck_measurements+/active_routes.ts": {
    kind: "list",
    path: "/api/web_app/truck_measurements/active_routes",
    features: ["truck_detection"],
  },
  "api+/web_app+/truck_routes.$id.checkpoints.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/truck_routes/${w.truckRouteId}/checkpoints`, { token }),
  },
  "api+/device+/truck_measurements.ts": {
    kind: "own",
    why: "uploads only into the device's own organisation's allowed storages (trucks-api tests)",
  },
  "api+/device+/truck_routes+/_route.ts": {
    kind: "own",
    why: "starts routes only for the device's own organisation's truck measurements (trucks-api tests)",
  },
  "api+/device+/truck_routes+/$id.ts": {
    kind: "own",
    why: "finishes only the device's own organisation's routes (trucks-api tests)",
  },
  "api+/device+/truck_routes+/$id.checkpoints.ts": {
    kind: "own",
    why: "adds checkpoints only to the device's own organisation's routes (trucks-api tests)",
  },
  "_app+/measurements+/truck+/$id.tsx": {
    kind: "id",
    call: (w, _t, cookie) => api(`/measurements/truck/${w.truckMeasurementId}`, { cookie }),
  },
  "_app+/truck_measurement.$id.tsx": {
    kind: "id",
    call: (w, _t, cookie) => api(`/truck_measurement/${w.truckMeasurementId}`, { cookie }),
  },
  // Containers and bills of lading (containers-api.test.ts): every call needs container_measurements.
  "api+/web_app+/containers+/container_filter.ts": {
    kind: "list",
    path: "/api/web_app/containers/container_filter",
    features: ["container_measurements"],
    json: {},
  },
  "api+/web_app+/containers+/bill_of_ladings.ts": {
    kind: "own",
    why: "creates a bill of lading in the caller's own organisation only",
  },
  "api+/web_app+/containers+/bill_of_ladings.$id.ts": {
    kind: "id",
    call: (w, token) =>
      api(`/api/web_app/containers/bill_of_ladings/${w.billOfLadingId}`, {
        token,
        method: "PATCH",
        json: { archived: true, token: true },
      }),
  },
  "api+/web_app+/containers+/bill_of_ladings.list.ts": {
    kind: "list",
    path: "/api/web_app/containers/bill_of_ladings/list",
    features: ["container_measurements"],
  },
  "api+/web_app+/containers+/contracts.ts": {
    kind: "list",
    path: "/api/web_app/containers/contracts",
    features: ["container_measurements"],
  },
  "api+/web_app+/containers+/containers.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/containers/containers?bol_id=${w.billOfLadingId}`, { token }),
  },
  "api+/web_app+/containers+/containers.$id.ts": {
    kind: "id",
    call: (w, token) =>
      api(`/api/web_app/containers/containers/${w.containerId}`, {
        token,
        method: "PATCH",
        json: { container: { name: "Taken" } },
      }),
  },
  "api+/web_app+/containers+/containers.list.ts": {
    kind: "list",
    path: "/api/web_app/containers/containers/list",
    features: ["container_measurements"],
  },
  "api+/web_app+/containers+/measurements.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/containers/measurements?container_id=${w.containerId}`, { token }),
  },
  "api+/web_app+/containers+/measurements.$id.ts": {
    kind: "id",
    call: (w, token) =>
      api(`/api/web_app/containers/measurements/${w.containerMeasurementId}`, {
        token,
        method: "PATCH",
        json: { locked_at: null, comment: "x" },
      }),
  },
  "api+/web_app+/containers+/measurements.batch_actions.ts": {
    kind: "body-id",
    id: "containerMeasurementId",
    call: (_w, token, id) =>
      api("/api/web_app/containers/measurements/batch_actions", {
        token,
        method: "PATCH",
        json: { measurement_ids: [id], delete: true },
      }),
  },
  "_app+/measurements+/container+/$id.tsx": {
    kind: "id",
    call: (w, _t, cookie) => api(`/measurements/container/${w.containerMeasurementId}`, { cookie }),
  },
  "api+/device+/container_measurements.ts": {
    kind: "own",
    why: "uploads only into the device's own organisation's allowed storages and containers (containers-api tests)",
  },
  // Shipments (issue 22): every call is 404 for an unflagged organisation; shipments.test.ts
  // repeats the id checks with a flagged outsider.
  "api+/web_app+/dashboard_filter+/cmpc.ts": { kind: "list", path: "/api/web_app/dashboard_filter/cmpc", cmpc: true },
  "api+/web_app+/shipments.list.ts": { kind: "list", path: "/api/web_app/shipments/list" },
  "api+/web_app+/cmpc_dashboard.search.ts": {
    kind: "id",
    call: (w, token) =>
      api("/api/web_app/cmpc_dashboard/search", { token, json: { q: { f: { shipment_id: w.shipmentId } } } }),
  },
  "api+/web_app+/measurements+/cmpc.$method.$id.ts": {
    kind: "id",
    call: (w, token) =>
      api(`/api/web_app/measurements/cmpc/truck_diameter/${w.truckDiameterId}`, {
        token,
        method: "PATCH",
        json: { volume_formula: "jas" },
      }),
  },
  "api+/device+/truck_diameter_measurements.ts": {
    kind: "own",
    why: "uploads only into the device's own organisation's allowed storages and shipments (shipments tests)",
  },
  "_app+/measurements+/cmpc+/$method.$id.tsx": {
    kind: "id",
    call: (w, _t, cookie) => api(`/measurements/cmpc/truck_diameter/${w.truckDiameterId}`, { cookie }),
  },
  "api+/web_app+/lumber_measurements+/$id.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/lumber_measurements/${w.lumberMeasurementId}?extra_fields=planks`, { token }),
  },
  "api+/web_app+/lumber_measurements+/search.ts": {
    kind: "id",
    call: (w, token) =>
      api("/api/web_app/lumber_measurements/search", { token, json: { storage_id: w.storageId, page: 1 } }),
  },
  "api+/web_app+/lumber_measurements+/_index.ts": {
    kind: "id",
    call: (w, token) =>
      api("/api/web_app/lumber_measurements", {
        token,
        method: "DELETE",
        json: { measurement_ids: [w.lumberMeasurementId] },
      }),
  },
  "files+/lumber_measurements.$id.photo.ts": {
    kind: "id",
    call: (w, token) => api(`/files/lumber_measurements/${w.lumberMeasurementId}/photo`, { token }),
  },
  "_app+/measurements+/lumber+/$id.tsx": {
    kind: "id",
    call: (w, _t, cookie) => api(`/measurements/lumber/${w.lumberMeasurementId}`, { cookie }),
  },
  "_app+/lumber_measurements.$id.tsx": {
    kind: "id",
    call: (w, _t, cookie) => api(`/lumber_measurements/${w.lumberMeasurementId}`, { cookie }),
  },
  "_app+/measurements+/timber+/$id_.edit.tsx": {
    kind: "id",
    call: (w, _t, cookie) => api(`/measurements/timber/${w.measurementId}/edit`, { cookie }),
  },
  "_app+/measurements+/lumber+/$id_.edit.tsx": {
    kind: "id",
    call: (w, _t, cookie) => api(`/measurements/lumber/${w.lumberMeasurementId}/edit`, { cookie }),
  },
  "_app+/measurements+/container+/$id_.edit.tsx": {
    kind: "id",
    call: (w, _t, cookie) => api(`/measurements/container/${w.containerMeasurementId}/edit`, { cookie }),
  },
};

// Everything outside the signed-in shell, and every route that takes a parameter.
const needsCheck = (file: string) => !file.startsWith("_app+/") || file.includes("$");

/** Route files that need a tenancy check and have none in ROUTES. */
const undeclared = (files: string[]) => files.filter(needsCheck).filter((f) => !(f in ROUTES));

async function world(): Promise<World> {
  const marker = `secret-${Math.random().toString(36).slice(2)}`;
  const org = await createOrganization({ name: marker });
  await createUser(org.id, { role: "admin" });
  const storage = await createStorage(org.id, { name: `${marker} yard` });
  const m = await createMeasurement(org.id, storage.id);
  await db()
    .updateTable("measurements")
    .set({ photo_key: "organizations/0/missing.jpg" })
    .where("id", "=", m.id)
    .execute();
  await db()
    .insertInto("assortments")
    .values({ organization_id: org.id, name: `${marker} sawlog` })
    .execute();
  await db()
    .insertInto("wood_types")
    .values({ organization_id: org.id, name: `${marker} species` })
    .execute();
  await db()
    .insertInto("wood_qualities")
    .values({ organization_id: org.id, name: `${marker} grade` })
    .execute();
  const exp = await db()
    .insertInto("exports")
    .values({
      organization_id: org.id,
      kind: "excel",
      report_type: "log_by_log_excel",
      name: `${marker} export`,
      params: JSON.stringify({ storage_id: storage.id }),
      status: 1,
      file_key: "organizations/0/missing.xlsx",
    })
    .executeTakeFirstOrThrow();
  const admin = await db()
    .selectFrom("users")
    .innerJoin("roles", "roles.user_id", "users.id")
    .select(["users.id as userId", "roles.id as roleId"])
    .where("roles.organization_id", "=", org.id)
    .executeTakeFirstOrThrow();
  const device = await createDevice(org.id);
  await db()
    .updateTable("devices")
    .set({ name: `${marker} phone` })
    .where("id", "=", device.id)
    .execute();
  const field = await createCustomField(org.id, { key: "grade_code", name: `${marker} field` });
  const value = await db()
    .insertInto("custom_field_values")
    .values({ organization_id: org.id, custom_field_id: field.id, value: `${marker} value` })
    .executeTakeFirstOrThrow();
  const id = async (q: { executeTakeFirstOrThrow(): Promise<{ insertId?: bigint }> }) =>
    Number((await q.executeTakeFirstOrThrow()).insertId);
  const assortmentId = (
    await db().selectFrom("assortments").select("id").where("organization_id", "=", org.id).executeTakeFirstOrThrow()
  ).id;
  const woodTypeId = (
    await db().selectFrom("wood_types").select("id").where("organization_id", "=", org.id).executeTakeFirstOrThrow()
  ).id;
  const woodQualityId = (
    await db().selectFrom("wood_qualities").select("id").where("organization_id", "=", org.id).executeTakeFirstOrThrow()
  ).id;
  const cullId = await id(
    db()
      .insertInto("culls")
      .values({ organization_id: org.id, reason: `${marker} rot` }),
  );
  const lumberProductId = await id(
    db()
      .insertInto("lumber_products")
      .values({
        organization_id: org.id,
        name: `${marker} plank`,
        plank_length: 3000,
        plank_width: 100,
        plank_height: 22,
      }),
  );
  const diameterProfileId = await id(
    db()
      .insertInto("diameter_profiles")
      .values({ organization_id: org.id, name: `${marker} profile` }),
  );
  const lumber = await createLumberMeasurement(org.id, storage.id, {
    productId: lumberProductId,
    photo: false,
    maxPlanks: 3,
    comment: `${marker} package`,
  });
  await db()
    .updateTable("lumber_measurements")
    .set({ photo_key: "organizations/0/missing.jpg" })
    .where("id", "=", lumber.id)
    .execute();
  const truck = await createTruckMeasurement(org.id, storage.id, { plate: marker.slice(0, 32) });
  const truckRoute = await createTruckRoute(org.id, truck.id, { points: [[58.38, 26.72]] });
  const { insertTruckDiameterMeasurement, findOrCreateShipment } = await import("~/models/shipment.server");
  const shipmentId = await findOrCreateShipment(db(), { organizationId: org.id }, marker.slice(0, 64));
  const truckDiameterId = await insertTruckDiameterMeasurement(
    db(),
    { organizationId: org.id },
    {
      storage_id: storage.id,
      taken_at: new Date(),
      shipment_number: marker.slice(0, 64),
      log_length: 3,
      trailer_license_plate: marker.slice(0, 32),
      logs: [{ x: 100, y: 100, r: 40 }],
      references: [{ x1: 0, y1: 500, x2: 400, y2: 500, size: 1 }],
    },
  );
  const analyzeReportId = await id(
    db()
      .insertInto("analyze_reports")
      .values({
        organization_id: org.id,
        name: `${marker} analysis`,
        status: "finished",
        period_from: "2026-11-01",
        period_to: "2026-11-30",
        storage_ids: "[]",
        measurement_types: "[]",
      }),
  );
  const analyzeCaseId = await id(
    db()
      .insertInto("analyze_report_cases")
      .values({
        organization_id: org.id,
        analyze_report_id: analyzeReportId,
        reasons: JSON.stringify(["same_photo"]),
        measurement_ids: JSON.stringify([m.id, m.id]),
      }),
  );
  return {
    analyzeReportId,
    analyzeCaseId,
    organizationId: org.id,
    storageId: storage.id,
    measurementId: m.id,
    exportId: Number(exp.insertId),
    userId: admin.userId,
    roleId: admin.roleId,
    deviceId: device.id,
    customFieldId: field.id,
    customFieldValueId: Number(value.insertId),
    assortmentId,
    cullId,
    woodTypeId,
    woodQualityId,
    lumberProductId,
    diameterProfileId,
    lumberMeasurementId: lumber.id,
    inventoryId: await id(
      db()
        .insertInto("inventories")
        .values({ organization_id: org.id, storage_id: storage.id, open_storage_id: storage.id }),
    ),
    truckMeasurementId: truck.id,
    truckRouteId: truckRoute.id,
    shipmentId,
    truckDiameterId,
    mixedStackReportId: Number(
      (
        await db()
          .insertInto("mixed_stack_reports")
          .values({ organization_id: org.id, name: `${marker} delivery` })
          .executeTakeFirstOrThrow()
      ).insertId,
    ),
    ...(await containerWorld(org.id, storage.id, marker)),
    reportId: Number(
      (
        await db()
          .insertInto("reports")
          .values({
            organization_id: org.id,
            name: `${marker} delivery report`,
            volume_formula: "cylinder",
            volume_unit: "m^3",
            reported_at: "2026-11-27",
            generating_in_progress: false,
          })
          .executeTakeFirstOrThrow()
      ).insertId,
    ),
    marker,
  };
}

async function containerWorld(organizationId: number, storageId: number, marker: string) {
  await db()
    .insertInto("container_contracts")
    .values({ organization_id: organizationId, name: `${marker} contract` })
    .execute();
  const billOfLadingId = await createBill(organizationId, `${marker} bill`);
  const containerId = await createContainer(organizationId, billOfLadingId, `${marker} box`);
  const containerMeasurementId = await createContainerMeasurement(organizationId, storageId, {
    containerId,
    comment: `${marker} note`,
  });
  return { billOfLadingId, containerId, containerMeasurementId };
}

describe("tenancy of every API route", () => {
  const files = routeFiles().filter(needsCheck);

  it("every API and file route has a tenancy check", () => {
    expect(undeclared(files)).toEqual([]);
    expect(Object.keys(ROUTES).filter((f) => !files.includes(f))).toEqual([]);
  });

  it("a route file without an entry, however deep in its area folder, is caught", () => {
    const appDir = fs.mkdtempSync(path.join(os.tmpdir(), "tenancy-routes-"));
    const routes = path.join(appDir, "routes");
    const write = (file: string) => {
      fs.mkdirSync(path.dirname(path.join(routes, file)), { recursive: true });
      fs.writeFileSync(path.join(routes, file), "export const loader = () => null;\n");
    };
    try {
      write("api+/web_app+/logins+/_route.ts"); // declared
      write("api+/web_app+/containers+/$id.ts"); // not declared
      write("api+/web_app+/containers+/__container.server.ts"); // beside a route: not a route
      write("_app+/containers+/_index.tsx"); // a shell screen without a parameter: needs no entry
      write("_app+/containers+/$id.tsx"); // not declared
      write("_app+/containers+/$id.test.ts"); // a test beside its route: not a route
      write("_public+/public_pallet.$token.tsx"); // not declared
      expect(undeclared(routeFiles(appDir))).toEqual([
        "_app+/containers+/$id.tsx",
        "_public+/public_pallet.$token.tsx",
        "api+/web_app+/containers+/$id.ts",
      ]);
    } finally {
      fs.rmSync(appDir, { recursive: true, force: true });
    }
  });

  for (const [file, check] of Object.entries(ROUTES)) {
    if (check.kind === "id") {
      it(`${file}: another organisation's record answers 404 and nothing changes`, async () => {
        const w = await world();
        await expectOutsiderGets404(({ token, cookie }) => check.call(w, token, cookie));
      });
    }
    if (check.kind === "body-id") {
      it(`${file}: another organisation's id in the body is answered like a missing one`, async () => {
        const w = await world();
        const other = await createOrganization();
        const user = await createUser(other.id, { role: "admin" });
        const token = await apiToken(user.id);
        const before = await snapshotTables();
        const foreign = await check.call(w, token, w[check.id] as number);
        const missing = await check.call(w, token, 2_000_000_000);
        expect(foreign.status).toBeGreaterThanOrEqual(400);
        expect({ status: foreign.status, data: foreign.data }).toEqual({ status: missing.status, data: missing.data });
        expect(await snapshotTables()).toEqual(before);
      });
    }
    if (check.kind === "device-list") {
      it(`${file}: a device of another organisation sees none of this organisation's rows`, async () => {
        const w = await world();
        const other = await createOrganization();
        const device = await createDevice(other.id);
        const { status, data } = await api(check.path, { token: device.token });
        expect(status).toBe(200);
        expect(JSON.stringify(data)).not.toContain(w.marker);
      });
    }
    if (check.kind === "list") {
      it(`${file}: lists none of another organisation's rows`, async () => {
        const w = await world();
        const other = await createOrganization({ features: check.features, cmpc_enabled: check.cmpc });
        const user = await createUser(other.id, { role: "admin" });
        const { status, data } = await api(check.path, { token: await apiToken(user.id), json: check.json });
        expect(status).toBe(200);
        expect(JSON.stringify(data)).not.toContain(w.marker);
      });
    }
  }
});
