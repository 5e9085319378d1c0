import { z } from "zod";
import { HISTORY_ACTIONS } from "~/models/measurement-history.server";
import { MEASUREMENT_KIND_NAMES } from "~/models/measurement-kind.server";
import { AccountPatchSchema } from "~/utils/schemas/account";
import {
  AcceptInvitationSchema,
  ChangeExpiredPasswordSchema,
  ForgotPasswordSchema,
  OtpLoginApiSchema,
  RegistrationApiSchema,
  ResetPasswordByTokenSchema,
  TwoFactorSchema,
} from "~/utils/schemas/accounts";
import { InviteSchema, OrganizationPatchSchema, RoleCreateSchema, UserPatchSchema } from "~/utils/schemas/admin";
import { AnalyzeReportRequestSchema } from "~/utils/schemas/analysis";
import { LoginApiSchema } from "~/utils/schemas/auth";
import {
  AddItemSchema,
  CheckoutSubscriptionSchema,
  PicturePackageSchema,
  UpdateItemSchema,
} from "~/utils/schemas/billing";
import {
  BillOfLadingCreateSchema,
  BillOfLadingPatchSchema,
  ContainerBatchSchema,
  ContainerDeviceMeasurementSchema,
  ContainerFilterSchema,
  ContainerMeasurementPatchSchema,
  ContainerPatchSchema,
  ContainersCreateSchema,
} from "~/utils/schemas/containers";
import {
  CustomFieldCreateSchema,
  CustomFieldPatchSchema,
  CustomFieldValuePatchSchema,
  CustomFieldValueSchema,
} from "~/utils/schemas/custom-fields";
import { DevicePairingSchema, DevicePatchSchema } from "~/utils/schemas/device";
import { CreateInventorySchema, InventoryFilterSchema } from "~/utils/schemas/inventory";
import {
  LumberIdsSchema,
  LumberPatchSchema,
  LumberSearchSchema,
  LumberDeviceMeasurementSchema,
} from "~/utils/schemas/lumber";
import {
  AssortmentCreateSchema,
  AssortmentPatchSchema,
  CullCreateSchema,
  CullPatchSchema,
  DiameterProfileCreateSchema,
  DiameterProfilePatchSchema,
  LumberProductCreateSchema,
  LumberProductPatchSchema,
} from "~/utils/schemas/master-data";
import {
  MixedStackAddSchema,
  MixedStackCreateSchema,
  MixedStackPatchSchema,
  MixedStackRemoveSchema,
} from "~/utils/schemas/mixed-stack";
import { ReportAddMeasurementsSchema, ReportCreateSchema, ReportStorageSchema } from "~/utils/schemas/reports";
import {
  cmpcFilterSchema,
  CmpcSearchSchema,
  TruckDiameterDeviceSchema,
  TruckDiameterPatchSchema,
} from "~/utils/schemas/shipment";
import {
  dashboardFilterSchema,
  DeletedSearchSchema,
  ManualMeasurementSchema,
  MeasurementIdsSchema,
  MeasurementPatchSchema,
  MoveStorageSchema,
  SearchSchema,
  DeviceMeasurementSchema,
} from "~/utils/schemas/timber";
import {
  CheckpointBatchSchema,
  TruckIdsSchema,
  TruckPatchSchema,
  TruckRouteFinishSchema,
  TruckRouteStartSchema,
  TruckSearchSchema,
  TruckDeviceMeasurementSchema,
} from "~/utils/schemas/truck";

// The OpenAPI 3.1 description of /api/web_app and /api/device (docs/decisions/024-trust.md),
// generated from the same zod schemas the routes parse their bodies with (zod 4's JSON Schema
// output). One line per operation: the route file it lives in (tests/unit/openapi.test.ts
// enumerates app/routes/api+ and fails for a file without a line), its method and path, and the
// body schema when the route reads one. Answers are described generically (JSON), not by schema:
// the routes do not declare response schemas yet.

type Schema = z.ZodType;
export interface ApiOperation {
  file: string;
  method: "get" | "post" | "patch" | "put" | "delete";
  path: string;
  summary: string;
  body?: Schema;
  /** multipart/form-data with a `photo` file and a `measurement` JSON part of this schema. */
  multipart?: Schema;
  /** Answers 201 Created (the route's `{ status: 201 }`; tests/unit/openapi.test.ts reads the route file). */
  created?: boolean;
}

/** A query-string parameter a route reads. */
export type QueryParam = { name: string; schema: Record<string, unknown>; description: string };

const TABLE: ApiOperation[] = [
  {
    file: "api+/billing.stripe.webhook.ts",
    method: "post",
    path: "/api/billing/stripe/webhook",
    summary: "POST /api/billing/stripe/webhook: Stripe's signed events (checkout, subscription, invoice).",
  },
  { file: "api+/device+/$.ts", method: "get", path: "/api/device/{rest}", summary: "" },
  {
    file: "api+/device+/lookups.ts",
    method: "get",
    path: "/api/device/lookups",
    summary: "GET /api/device/lookups: the master data the app needs to fill a measurement in. Built-in",
  },
  {
    file: "api+/device+/lumber_measurements.ts",
    method: "post",
    path: "/api/device/lumber_measurements",
    summary: "POST /api/device/lumber_measurements (multipart): `photo` (the package end) and `measurement`",
  },
  {
    file: "api+/device+/measurements.ts",
    method: "post",
    path: "/api/device/measurements",
    summary: "POST /api/device/measurements (multipart): `photo` (the stack photo) and `measurement` (JSON:",
  },
  {
    file: "api+/device+/pairings.ts",
    method: "post",
    path: "/api/device/pairings",
    summary: "POST /api/device/pairings {activation_code, hw_id, name}: the mobile app pairs with an",
    body: DevicePairingSchema,
  },
  {
    file: "api+/device+/storages.ts",
    method: "get",
    path: "/api/device/storages",
    summary: "GET /api/device/storages: the storages this device may upload into.",
  },
  {
    file: "api+/device+/truck_measurements.ts",
    method: "post",
    path: "/api/device/truck_measurements",
    summary: "POST /api/device/truck_measurements (multipart): `photo` (the load's side) and `measurement`",
  },
  {
    file: "api+/device+/truck_routes+/$id.checkpoints.ts",
    method: "post",
    path: "/api/device/truck_routes/{id}/checkpoints",
    summary: "POST /api/device/truck_routes/{id}/checkpoints {checkpoints: [{client_id, latitude, longitude,",
    body: CheckpointBatchSchema,
  },
  {
    file: "api+/device+/truck_routes+/$id.ts",
    method: "patch",
    path: "/api/device/truck_routes/{id}",
    summary: "PATCH /api/device/truck_routes/{id} {finished_at}: finishes the route (the first finish stays).",
    body: TruckRouteFinishSchema,
  },
  {
    file: "api+/device+/truck_routes+/_route.ts",
    method: "post",
    path: "/api/device/truck_routes",
    summary: "POST /api/device/truck_routes {client_id, truck_measurement_id, started_at}: starts a route for",
    body: TruckRouteStartSchema,
  },
  { file: "api+/web_app+/$.ts", method: "get", path: "/api/web_app/{rest}", summary: "" },
  {
    file: "api+/web_app+/account.ts",
    method: "get",
    path: "/api/web_app/account",
    summary:
      "PATCH /api/web_app/account {user:{locale?, recent_measurement_mode?}}; the header's language form posts here too.",
  },
  {
    file: "api+/web_app+/account.ts",
    method: "patch",
    path: "/api/web_app/account",
    summary:
      "PATCH /api/web_app/account {user:{locale?, recent_measurement_mode?}}; the header's language form posts here too.",
    body: AccountPatchSchema,
  },
  {
    file: "api+/web_app+/analyze_reports+/$analyze_report_id.cases.$id.resolve.ts",
    method: "post",
    path: "/api/web_app/analyze_reports/{analyze_report_id}/cases/{id}/resolve",
    summary:
      "POST /api/web_app/analyze_reports/{analyze_report_id}/cases/{id}/resolve: the answer carries resolved_at.",
  },
  {
    file: "api+/web_app+/analyze_reports+/$id.ts",
    method: "get",
    path: "/api/web_app/analyze_reports/{id}",
    summary: "GET /api/web_app/analyze_reports/{id}?page=n: the report and one page (5) of its cases.",
  },
  {
    file: "api+/web_app+/analyze_reports+/_route.ts",
    method: "get",
    path: "/api/web_app/analyze_reports",
    summary: "GET /api/web_app/analyze_reports: the organisation's analyses, newest first (admins, with the feature).",
  },
  {
    file: "api+/web_app+/analyze_reports+/_route.ts",
    method: "post",
    path: "/api/web_app/analyze_reports",
    created: true,
    summary: "GET /api/web_app/analyze_reports: the organisation's analyses, newest first (admins, with the feature).",
    body: AnalyzeReportRequestSchema,
  },
  {
    file: "api+/web_app+/assortments+/$id.ts",
    method: "delete",
    path: "/api/web_app/assortments/{id}",
    summary: "PATCH /api/web_app/assortments/{id} wood_characteristic{...}; DELETE archives it.",
  },
  {
    file: "api+/web_app+/assortments+/$id.ts",
    method: "patch",
    path: "/api/web_app/assortments/{id}",
    summary: "PATCH /api/web_app/assortments/{id} wood_characteristic{...}; DELETE archives it.",
    body: AssortmentPatchSchema,
  },
  {
    file: "api+/web_app+/assortments+/_route.ts",
    method: "get",
    path: "/api/web_app/assortments",
    summary: "GET /api/web_app/assortments: built-in and own, sorted by name (min/max are the diameter bounds).",
  },
  {
    file: "api+/web_app+/assortments+/_route.ts",
    method: "post",
    path: "/api/web_app/assortments",
    created: true,
    summary: "GET /api/web_app/assortments: built-in and own, sorted by name (min/max are the diameter bounds).",
    body: AssortmentCreateSchema,
  },
  {
    file: "api+/web_app+/checkout+/picture_package.ts",
    method: "post",
    path: "/api/web_app/checkout/picture_package",
    summary: "POST /api/web_app/checkout/picture_package {package_id: PLAN_10..PLAN_200}: {redirect_url} (admins).",
    body: PicturePackageSchema,
  },
  {
    file: "api+/web_app+/checkout+/subscription.ts",
    method: "post",
    path: "/api/web_app/checkout/subscription",
    summary:
      "POST /api/web_app/checkout/subscription {period, trial, line_items}: {redirect_url} (admins, no live subscription).",
    body: CheckoutSubscriptionSchema,
  },
  {
    file: "api+/web_app+/culls+/$id.ts",
    method: "delete",
    path: "/api/web_app/culls/{id}",
    summary: "PATCH /api/web_app/culls/{id} cull{reason, min, max}; DELETE archives it.",
  },
  {
    file: "api+/web_app+/culls+/$id.ts",
    method: "patch",
    path: "/api/web_app/culls/{id}",
    summary: "PATCH /api/web_app/culls/{id} cull{reason, min, max}; DELETE archives it.",
    body: CullPatchSchema,
  },
  {
    file: "api+/web_app+/culls+/_route.ts",
    method: "get",
    path: "/api/web_app/culls",
    summary: "GET /api/web_app/culls: built-in and own, sorted by reason.",
  },
  {
    file: "api+/web_app+/culls+/_route.ts",
    method: "post",
    path: "/api/web_app/culls",
    created: true,
    summary: "GET /api/web_app/culls: built-in and own, sorted by reason.",
    body: CullCreateSchema,
  },
  {
    file: "api+/web_app+/custom_fields+/$id.ts",
    method: "patch",
    path: "/api/web_app/custom_fields/{id}",
    summary: "PATCH /api/web_app/custom_fields/{id} {custom_field{name, archived, searchable, required}}.",
    body: CustomFieldPatchSchema,
  },
  {
    file: "api+/web_app+/custom_fields+/$id.values.ts",
    method: "post",
    path: "/api/web_app/custom_fields/{id}/values",
    created: true,
    summary: "POST /api/web_app/custom_fields/{id}/values {custom_field_value{value, rank}}.",
    body: CustomFieldValueSchema,
  },
  {
    file: "api+/web_app+/custom_fields+/_route.ts",
    method: "get",
    path: "/api/web_app/custom_fields",
    summary: "GET /api/web_app/custom_fields: every member reads them (the measurement forms need them).",
  },
  {
    file: "api+/web_app+/custom_fields+/_route.ts",
    method: "post",
    path: "/api/web_app/custom_fields",
    created: true,
    summary: "GET /api/web_app/custom_fields: every member reads them (the measurement forms need them).",
    body: CustomFieldCreateSchema,
  },
  {
    file: "api+/web_app+/custom_fields+/values.$id.ts",
    method: "patch",
    path: "/api/web_app/custom_fields/values/{id}",
    summary: "PATCH /api/web_app/custom_fields/values/{id} {custom_field_value{value, rank, archived}}.",
    body: CustomFieldValuePatchSchema,
  },
  {
    file: "api+/web_app+/customer_portal.ts",
    method: "post",
    path: "/api/web_app/customer_portal",
    summary: "POST /api/web_app/customer_portal: {portal_url} (admins).",
  },
  {
    file: "api+/web_app+/dashboard_filter+/_route.ts",
    method: "get",
    path: "/api/web_app/dashboard_filter",
    summary: "GET /dashboard_filter?storage_ids=&taken_at_start=&...&custom_fields[key]=: storages with their",
  },
  {
    file: "api+/web_app+/devices+/$id.ts",
    method: "delete",
    path: "/api/web_app/devices/{id}",
    summary:
      "PATCH /api/web_app/devices/{id}: device{name, affiliation} or device{storage_ids, default_storage_id}; DELETE removes it",
  },
  {
    file: "api+/web_app+/devices+/$id.ts",
    method: "patch",
    path: "/api/web_app/devices/{id}",
    summary:
      "PATCH /api/web_app/devices/{id}: device{name, affiliation} or device{storage_ids, default_storage_id}; DELETE removes it",
    body: DevicePatchSchema,
  },
  {
    file: "api+/web_app+/devices+/_route.ts",
    method: "get",
    path: "/api/web_app/devices",
    summary: "GET /api/web_app/devices[?q=]: the organisation's devices with access and owner (admins only).",
  },
  {
    file: "api+/web_app+/devices+/list.ts",
    method: "get",
    path: "/api/web_app/devices/list",
    summary:
      "GET /api/web_app/devices/list: id and name of the organisation's devices, a lookup for filters (any member).",
  },
  {
    file: "api+/web_app+/devices+/send_invite.ts",
    method: "post",
    path: "/api/web_app/devices/send_invite",
    created: true,
    summary: 'POST /api/web_app/devices/send_invite {invite:{email}} -> {message: "Invitation sent"}.',
    body: InviteSchema,
  },
  {
    file: "api+/web_app+/diameter_profiles+/$id.ts",
    method: "delete",
    path: "/api/web_app/diameter_profiles/{id}",
    summary: "PATCH /api/web_app/diameter_profiles/{id}; DELETE archives it.",
  },
  {
    file: "api+/web_app+/diameter_profiles+/$id.ts",
    method: "patch",
    path: "/api/web_app/diameter_profiles/{id}",
    summary: "PATCH /api/web_app/diameter_profiles/{id}; DELETE archives it.",
    body: DiameterProfilePatchSchema,
  },
  {
    file: "api+/web_app+/diameter_profiles+/_route.ts",
    method: "get",
    path: "/api/web_app/diameter_profiles",
    summary: "GET /api/web_app/diameter_profiles (diameter_profiles feature).",
  },
  {
    file: "api+/web_app+/diameter_profiles+/_route.ts",
    method: "post",
    path: "/api/web_app/diameter_profiles",
    created: true,
    summary: "GET /api/web_app/diameter_profiles (diameter_profiles feature).",
    body: DiameterProfileCreateSchema,
  },
  {
    file: "api+/web_app+/enabled_features.ts",
    method: "get",
    path: "/api/web_app/enabled_features",
    summary: "GET /api/web_app/enabled_features: the features derived from the organisation's active items.",
  },
  {
    file: "api+/web_app+/excel_exports+/$id.ts",
    method: "get",
    path: "/api/web_app/excel_exports/{id}",
    summary: "GET /api/web_app/excel_exports/{id}: one export with its status and progress (the notices poll it).",
  },
  {
    file: "api+/web_app+/excel_exports+/$id.ts",
    method: "delete",
    path: "/api/web_app/excel_exports/{id}",
    summary: "GET /api/web_app/excel_exports/{id}: one export with its status and progress (the notices poll it).",
  },
  {
    file: "api+/web_app+/excel_exports+/_route.ts",
    method: "get",
    path: "/api/web_app/excel_exports",
    summary: "GET /api/web_app/excel_exports: the organisation's Excel exports (?q= searches by name).",
  },
  {
    file: "api+/web_app+/excel_exports+/_route.ts",
    method: "post",
    path: "/api/web_app/excel_exports",
    summary: "GET /api/web_app/excel_exports: the organisation's Excel exports (?q= searches by name).",
  },
  {
    file: "api+/web_app+/inventories+/$id.confirm.ts",
    method: "post",
    path: "/api/web_app/inventories/{id}/confirm",
    summary: "POST /inventories/{id}/confirm: one way; locks what it counted. A second confirm is 422.",
  },
  {
    file: "api+/web_app+/inventories+/_route.ts",
    method: "get",
    path: "/api/web_app/inventories",
    summary: "GET /inventories?storage_id=&month=yyyy-MM&page=: newest first, with their figures (m³).",
  },
  {
    file: "api+/web_app+/inventories+/_route.ts",
    method: "post",
    path: "/api/web_app/inventories",
    created: true,
    summary: "GET /inventories?storage_id=&month=yyyy-MM&page=: newest first, with their figures (m³).",
    body: CreateInventorySchema,
  },
  {
    file: "api+/web_app+/logins+/_route.ts",
    method: "post",
    path: "/api/web_app/logins",
    summary:
      "POST /api/web_app/logins: credentials{email,password} -> 200 {access_token, created_at, expires_in}, 202 code needed, 40",
    body: LoginApiSchema,
  },
  {
    file: "api+/web_app+/logins+/forgot_password.ts",
    method: "post",
    path: "/api/web_app/logins/forgot_password",
    summary:
      "POST /api/web_app/logins/forgot_password {email}: the same answer whether or not the address has an account.",
    body: ForgotPasswordSchema,
  },
  {
    file: "api+/web_app+/logins+/otp.ts",
    method: "post",
    path: "/api/web_app/logins/otp",
    summary:
      "POST /api/web_app/logins/otp: credentials plus otp_code (a TOTP or a backup code). Wrong code: 401 INVALID_OTP_CODE.",
    body: OtpLoginApiSchema,
  },
  {
    file: "api+/web_app+/logins+/reset_password.ts",
    method: "post",
    path: "/api/web_app/logins/reset_password",
    summary: "POST /api/web_app/logins/reset_password: {token, new_password, password_confirmation} (the",
    body: ChangeExpiredPasswordSchema,
  },
  {
    file: "api+/web_app+/logout.ts",
    method: "post",
    path: "/api/web_app/logout",
    summary: "POST /api/web_app/logout: revokes the token the call was made with.",
  },
  {
    file: "api+/web_app+/lumber_measurements+/$id.ts",
    method: "get",
    path: "/api/web_app/lumber_measurements/{id}",
    summary: "GET /lumber_measurements/{id}?fields=a,b&extra_fields=planks (or logs),custom_fields,comment: {data}.",
  },
  {
    file: "api+/web_app+/lumber_measurements+/$id.ts",
    method: "patch",
    path: "/api/web_app/lumber_measurements/{id}",
    summary: "GET /lumber_measurements/{id}?fields=a,b&extra_fields=planks (or logs),custom_fields,comment: {data}.",
    body: LumberPatchSchema,
  },
  {
    file: "api+/web_app+/lumber_measurements+/_index.ts",
    method: "delete",
    path: "/api/web_app/lumber_measurements",
    summary: "DELETE /lumber_measurements {measurement_ids}: soft delete (the dashboard asks for confirmation first).",
    body: LumberIdsSchema,
  },
  {
    file: "api+/web_app+/lumber_measurements+/search.ts",
    method: "post",
    path: "/api/web_app/lumber_measurements/search",
    summary: "POST /lumber_measurements/search {storage_id, measurement_ids, page}: a page of 5 lumber",
    body: LumberSearchSchema,
  },
  {
    file: "api+/web_app+/lumber_products+/$id.ts",
    method: "delete",
    path: "/api/web_app/lumber_products/{id}",
    summary: "PATCH and DELETE /api/web_app/lumber_products/{id}.",
  },
  {
    file: "api+/web_app+/lumber_products+/$id.ts",
    method: "patch",
    path: "/api/web_app/lumber_products/{id}",
    summary: "PATCH and DELETE /api/web_app/lumber_products/{id}.",
    body: LumberProductPatchSchema,
  },
  {
    file: "api+/web_app+/lumber_products+/_route.ts",
    method: "get",
    path: "/api/web_app/lumber_products",
    summary: "POST /api/web_app/lumber_products {name, plank_length, plank_width, plank_height} (each > 0).",
  },
  {
    file: "api+/web_app+/lumber_products+/_route.ts",
    method: "post",
    path: "/api/web_app/lumber_products",
    created: true,
    summary: "POST /api/web_app/lumber_products {name, plank_length, plank_width, plank_height} (each > 0).",
    body: LumberProductCreateSchema,
  },
  {
    file: "api+/web_app+/manual_measurements.ts",
    method: "post",
    path: "/api/web_app/manual_measurements",
    created: true,
    summary:
      "POST /manual_measurements {manual_measurement:{taken_at, measurement_type_id, volume, wood_characteristic_id?, storage_i",
    body: ManualMeasurementSchema,
  },
  {
    file: "api+/web_app+/measurements+/$id.history.ts",
    method: "get",
    path: "/api/web_app/measurements/{id}/history",
    summary: "GET /measurements/{id}/history?kind=timber|lumber|truck (timber when absent): the",
  },
  {
    file: "api+/web_app+/measurements+/$id.ts",
    method: "get",
    path: "/api/web_app/measurements/{id}",
    summary: "GET /measurements/{id}?fields=a,b&extra_fields=logs,references,logs_sheet,...: {data}.",
  },
  {
    file: "api+/web_app+/measurements+/$id.ts",
    method: "patch",
    path: "/api/web_app/measurements/{id}",
    summary: "GET /measurements/{id}?fields=a,b&extra_fields=logs,references,logs_sheet,...: {data}.",
    body: MeasurementPatchSchema,
  },
  {
    file: "api+/web_app+/measurements+/_index.ts",
    method: "delete",
    path: "/api/web_app/measurements",
    summary: "DELETE /measurements {measurement_ids}: soft delete (the deleted page lists them).",
    body: MeasurementIdsSchema,
  },
  {
    file: "api+/web_app+/measurements+/deleted.ts",
    method: "post",
    path: "/api/web_app/measurements/deleted",
    summary:
      "POST /measurements/deleted {created_at_from?, created_at_until?} (dd.MM.yyyy or ISO): deleted measurements by storage.",
    body: DeletedSearchSchema,
  },
  {
    file: "api+/web_app+/measurements+/markers.storage.$id.ts",
    method: "get",
    path: "/api/web_app/measurements/markers/storage/{id}",
    summary:
      "GET /measurements/markers/storage/{id} (optionally with the dashboard filter): {items: [{id, latitude, longitude}]}.",
  },
  {
    file: "api+/web_app+/measurements+/move_storage.ts",
    method: "patch",
    path: "/api/web_app/measurements/move_storage",
    summary: "PATCH /measurements/move_storage {move_storage:[{measurement_id, storage_id}]}.",
    body: MoveStorageSchema,
  },
  {
    file: "api+/web_app+/measurements+/public.$token.ts",
    method: "get",
    path: "/api/web_app/measurements/public/{token}",
    summary: "GET /measurements/public/{token}: a shared measurement as its public page shows it, for anyone",
  },
  {
    file: "api+/web_app+/measurements+/search.ts",
    method: "post",
    path: "/api/web_app/measurements/search",
    summary:
      "POST /measurements/search {q:{f:{storage_id, measurement_id, ...dashboard filters}}, paginate:{per_page, page}}:",
    body: SearchSchema,
  },
  {
    file: "api+/web_app+/mixed_stack_reports+/$id.add_measurements.ts",
    method: "post",
    path: "/api/web_app/mixed_stack_reports/{id}/add_measurements",
    summary: "POST /mixed_stack_reports/{id}/add_measurements {category: close_up | far_away, measurement_ids}:",
    body: MixedStackAddSchema,
  },
  {
    file: "api+/web_app+/mixed_stack_reports+/$id.remove_measurements.ts",
    method: "post",
    path: "/api/web_app/mixed_stack_reports/{id}/remove_measurements",
    summary: "POST /mixed_stack_reports/{id}/remove_measurements {measurement_ids}: the report after detaching them.",
    body: MixedStackRemoveSchema,
  },
  {
    file: "api+/web_app+/mixed_stack_reports+/$id.ts",
    method: "get",
    path: "/api/web_app/mixed_stack_reports/{id}",
    summary: "GET /mixed_stack_reports/{id}: the report with its figures and both groups.",
  },
  {
    file: "api+/web_app+/mixed_stack_reports+/$id.ts",
    method: "patch",
    path: "/api/web_app/mixed_stack_reports/{id}",
    summary: "GET /mixed_stack_reports/{id}: the report with its figures and both groups.",
    body: MixedStackPatchSchema,
  },
  {
    file: "api+/web_app+/mixed_stack_reports+/_route.ts",
    method: "get",
    path: "/api/web_app/mixed_stack_reports",
    summary: "GET /mixed_stack_reports: the organisation's reports, last changed first.",
  },
  {
    file: "api+/web_app+/mixed_stack_reports+/_route.ts",
    method: "post",
    path: "/api/web_app/mixed_stack_reports",
    created: true,
    summary: "GET /mixed_stack_reports: the organisation's reports, last changed first.",
    body: MixedStackCreateSchema,
  },
  {
    file: "api+/web_app+/mixed_stack_reports+/public.$token.ts",
    method: "get",
    path: "/api/web_app/mixed_stack_reports/public/{token}",
    summary: "GET /mixed_stack_reports/public/{token}: a shared mixed stack report as its public page shows",
  },
  {
    file: "api+/web_app+/organizations+/$id.ts",
    method: "patch",
    path: "/api/web_app/organizations/{id}",
    summary:
      "PATCH /api/web_app/organizations/{id}: name, address, vat_code (EU pattern), city, postal_code, invoice_email; or defaul",
    body: OrganizationPatchSchema,
  },
  {
    file: "api+/web_app+/organizations+/_route.ts",
    method: "get",
    path: "/api/web_app/organizations",
    summary: "GET /api/web_app/organizations: the organisations the user belongs to, the current one marked.",
  },
  {
    file: "api+/web_app+/pdf_exports+/$id.ts",
    method: "get",
    path: "/api/web_app/pdf_exports/{id}",
    summary: "GET /api/web_app/pdf_exports/{id}: one export with its status and progress (the notices poll it).",
  },
  {
    file: "api+/web_app+/pdf_exports+/$id.ts",
    method: "delete",
    path: "/api/web_app/pdf_exports/{id}",
    summary: "GET /api/web_app/pdf_exports/{id}: one export with its status and progress (the notices poll it).",
  },
  {
    file: "api+/web_app+/pdf_exports+/$id.ts",
    method: "post",
    path: "/api/web_app/pdf_exports/{id}",
    summary: "GET /api/web_app/pdf_exports/{id}: one export with its status and progress (the notices poll it).",
  },
  {
    file: "api+/web_app+/pdf_exports+/_route.ts",
    method: "get",
    path: "/api/web_app/pdf_exports",
    summary: "GET /api/web_app/pdf_exports: the organisation's PDF exports (?q= searches by name).",
  },
  {
    file: "api+/web_app+/pdf_exports+/_route.ts",
    method: "post",
    path: "/api/web_app/pdf_exports",
    summary: "GET /api/web_app/pdf_exports: the organisation's PDF exports (?q= searches by name).",
  },
  {
    file: "api+/web_app+/pricing.ts",
    method: "get",
    path: "/api/web_app/pricing",
    summary: "GET /api/web_app/pricing: per package monthly and yearly price (EUR), picture plans.",
  },
  {
    file: "api+/web_app+/realtime.token.ts",
    method: "get",
    path: "/api/web_app/realtime/token",
    summary: "Ably token requests for the browser (only when Ably is configured).",
  },
  {
    file: "api+/web_app+/registration.ts",
    method: "post",
    path: "/api/web_app/registration",
    created: true,
    summary:
      'POST /api/web_app/registration {signup}: a new organisation and its admin; 422 "Email has already been taken".',
    body: RegistrationApiSchema,
  },
  {
    file: "api+/web_app+/roles+/$id.ts",
    method: "delete",
    path: "/api/web_app/roles/{id}",
    summary: "DELETE /api/web_app/roles/{id}: admins remove another user's role.",
  },
  {
    file: "api+/web_app+/roles+/_route.ts",
    method: "post",
    path: "/api/web_app/roles",
    created: true,
    summary: "POST /api/web_app/roles: role{name, user_id} plus one of organization_id, storage_id, storage_group_id.",
    body: RoleCreateSchema,
  },
  {
    file: "api+/web_app+/storage_groups.ts",
    method: "get",
    path: "/api/web_app/storage_groups",
    summary: "GET /api/web_app/storage_groups: the organisation's storage groups (a lookup of the role panel).",
  },
  {
    file: "api+/web_app+/storages+/$id.ts",
    method: "delete",
    path: "/api/web_app/storages/{id}",
    summary: "DELETE /storages/{id}: soft delete with its measurements; the default storage answers 422.",
  },
  { file: "api+/web_app+/storages+/list.ts", method: "get", path: "/api/web_app/storages/list", summary: "" },
  {
    file: "api+/web_app+/storages+/public.$token.$page.ts",
    method: "get",
    path: "/api/web_app/storages/public/{token}/{page}",
    summary: "GET /storages/public/{token}/{page}: a shared storage with one page of its measurements, for",
  },
  {
    file: "api+/web_app+/subscription+/invoices.ts",
    method: "get",
    path: "/api/web_app/subscription/invoices",
    summary: "GET /api/web_app/subscription/invoices: the organisation's invoices, newest first (admins).",
  },
  {
    file: "api+/web_app+/subscription+/items.$package_id.ts",
    method: "delete",
    path: "/api/web_app/subscription/items/{package_id}",
    summary:
      "DELETE /api/web_app/subscription/items/{package_id}: marks the item cancelled until the period ends (admins).",
  },
  {
    file: "api+/web_app+/subscription+/items.preview.ts",
    method: "post",
    path: "/api/web_app/subscription/items/preview",
    summary: "POST /api/web_app/subscription/items/preview {package_id, quantity}: {amount_due} in EUR (admins).",
    body: UpdateItemSchema,
  },
  {
    file: "api+/web_app+/subscription+/items.ts",
    method: "get",
    path: "/api/web_app/subscription/items",
    summary: "GET /api/web_app/subscription/items: the subscription info, its items and the device seats per",
  },
  {
    file: "api+/web_app+/subscription+/items.ts",
    method: "patch",
    path: "/api/web_app/subscription/items",
    summary: "GET /api/web_app/subscription/items: the subscription info, its items and the device seats per",
    body: UpdateItemSchema,
  },
  {
    file: "api+/web_app+/subscription+/items.ts",
    method: "post",
    path: "/api/web_app/subscription/items",
    created: true,
    summary: "GET /api/web_app/subscription/items: the subscription info, its items and the device seats per",
    body: AddItemSchema,
  },
  {
    file: "api+/web_app+/truck_diameter_measurements.ts",
    method: "delete",
    path: "/api/web_app/truck_diameter_measurements",
    summary: "DELETE /truck_diameter_measurements {measurement_ids}: soft delete, all or nothing.",
    body: TruckIdsSchema,
  },
  {
    file: "api+/web_app+/truck_measurements+/$id.routes.ts",
    method: "get",
    path: "/api/web_app/truck_measurements/{id}/routes",
    summary: "GET /truck_measurements/{id}/routes: {data: routes with started_at, finished_at, last_checkpoint}.",
  },
  {
    file: "api+/web_app+/truck_measurements+/$id.ts",
    method: "get",
    path: "/api/web_app/truck_measurements/{id}",
    summary: "GET /truck_measurements/{id}: {data} with its truck and loads.",
  },
  {
    file: "api+/web_app+/truck_measurements+/$id.ts",
    method: "patch",
    path: "/api/web_app/truck_measurements/{id}",
    summary:
      "PATCH /truck_measurements/{id} {loads, loads_removed, measurement_type_id, weight, weight_density, references, volume_formula}: the server recomputes the volumes.",
    body: TruckPatchSchema,
  },
  {
    file: "api+/web_app+/truck_measurements+/_route.ts",
    method: "delete",
    path: "/api/web_app/truck_measurements",
    summary: "DELETE /truck_measurements {measurement_ids}: soft delete, all or nothing.",
    body: TruckIdsSchema,
  },
  {
    file: "api+/web_app+/truck_measurements+/active_routes.ts",
    method: "get",
    path: "/api/web_app/truck_measurements/active_routes",
    summary:
      "GET /truck_measurements/active_routes (feature truck_detection): unfinished routes with each truck's last position.",
  },
  {
    file: "api+/web_app+/truck_measurements+/search.ts",
    method: "post",
    path: "/api/web_app/truck_measurements/search",
    summary: "POST /truck_measurements/search {q: {f: {storage_id, measurement_id, license_plate}},",
    body: TruckSearchSchema,
  },
  {
    file: "api+/web_app+/truck_routes.$id.checkpoints.ts",
    method: "get",
    path: "/api/web_app/truck_routes/{id}/checkpoints",
    summary:
      "GET /truck_routes/{id}/checkpoints: {data: the route's checkpoints (latitude, longitude, recorded_at) in time order}.",
  },
  {
    file: "api+/web_app+/two_factors.ts",
    method: "delete",
    path: "/api/web_app/two_factors",
    summary: "POST /api/web_app/two_factors: without otp_code starts a set-up, 202 {url} (two-factor stays",
  },
  {
    file: "api+/web_app+/two_factors.ts",
    method: "post",
    path: "/api/web_app/two_factors",
    created: true,
    summary: "POST /api/web_app/two_factors: without otp_code starts a set-up, 202 {url} (two-factor stays",
    body: TwoFactorSchema,
  },
  {
    file: "api+/web_app+/users+/$id.ts",
    method: "delete",
    path: "/api/web_app/users/{id}",
    summary: "PATCH /api/web_app/users/{id}, on one's own id only: user{name, current_password, password,",
  },
  {
    file: "api+/web_app+/users+/$id.ts",
    method: "patch",
    path: "/api/web_app/users/{id}",
    summary: "PATCH /api/web_app/users/{id}, on one's own id only: user{name, current_password, password,",
    body: UserPatchSchema,
  },
  {
    file: "api+/web_app+/users+/_route.ts",
    method: "get",
    path: "/api/web_app/users",
    summary: "GET /api/web_app/users[?q=email part]: the organisation's users with their roles here (admins only).",
  },
  {
    file: "api+/web_app+/users+/accept_invitation.ts",
    method: "post",
    path: "/api/web_app/users/accept_invitation",
    summary: "POST /api/web_app/users/accept_invitation {invitation_token, password, password_confirmation}.",
    body: AcceptInvitationSchema,
  },
  {
    file: "api+/web_app+/users+/invite_user.ts",
    method: "post",
    path: "/api/web_app/users/invite_user",
    created: true,
    summary:
      "POST /api/web_app/users/invite_user {invite:{email}}: 422 USER_EXISTS when the address is already a member.",
    body: InviteSchema,
  },
  {
    file: "api+/web_app+/users+/resend_verification.ts",
    method: "post",
    path: "/api/web_app/users/resend_verification",
    summary:
      "POST /api/web_app/users/resend_verification: a fresh link (older ones stop working); 422 when already verified.",
  },
  {
    file: "api+/web_app+/users+/switch_organization.$id.ts",
    method: "patch",
    path: "/api/web_app/users/switch_organization/{id}",
    summary: "PATCH /api/web_app/users/switch_organization/{id}. An organisation the user does not belong",
  },
  { file: "api+/web_app+/volume_formulas.ts", method: "get", path: "/api/web_app/volume_formulas", summary: "" },
  {
    file: "api+/web_app+/wood_qualities+/$id.ts",
    method: "delete",
    path: "/api/web_app/wood_qualities/{id}",
    summary: "PATCH /api/web_app/wood_qualities/{id} {name, archived}; DELETE archives it. Built-in rows: 403.",
  },
  {
    file: "api+/web_app+/wood_qualities+/$id.ts",
    method: "patch",
    path: "/api/web_app/wood_qualities/{id}",
    summary: "PATCH /api/web_app/wood_qualities/{id} {name, archived}; DELETE archives it. Built-in rows: 403.",
  },
  {
    file: "api+/web_app+/wood_qualities+/_route.ts",
    method: "get",
    path: "/api/web_app/wood_qualities",
    summary: "GET /api/web_app/wood_qualities: built-in (translated names) and the organisation's own.",
  },
  {
    file: "api+/web_app+/wood_qualities+/_route.ts",
    method: "post",
    path: "/api/web_app/wood_qualities",
    created: true,
    summary: "GET /api/web_app/wood_qualities: built-in (translated names) and the organisation's own.",
  },
  {
    file: "api+/web_app+/wood_types+/$id.ts",
    method: "delete",
    path: "/api/web_app/wood_types/{id}",
    summary: "PATCH /api/web_app/wood_types/{id} {name, archived}; DELETE archives it. Built-in rows: 403.",
  },
  {
    file: "api+/web_app+/wood_types+/$id.ts",
    method: "patch",
    path: "/api/web_app/wood_types/{id}",
    summary: "PATCH /api/web_app/wood_types/{id} {name, archived}; DELETE archives it. Built-in rows: 403.",
  },
  {
    file: "api+/web_app+/wood_types+/_route.ts",
    method: "get",
    path: "/api/web_app/wood_types",
    summary: "GET /api/web_app/wood_types: built-in (translated names) and the organisation's own.",
  },
  {
    file: "api+/web_app+/wood_types+/_route.ts",
    method: "post",
    path: "/api/web_app/wood_types",
    created: true,
    summary: "GET /api/web_app/wood_types: built-in (translated names) and the organisation's own.",
  },
  {
    file: "api+/device+/container_measurements.ts",
    method: "post",
    path: "/api/device/container_measurements",
    summary:
      "POST /api/device/container_measurements (multipart): `photo` (the log ends through the door) and `measurement` (JSON).",
  },
  {
    file: "api+/device+/truck_diameter_measurements.ts",
    method: "post",
    path: "/api/device/truck_diameter_measurements",
    summary:
      "POST /api/device/truck_diameter_measurements (multipart): `photo` (the log ends on the truck) and `measurement` (JSON).",
  },
  {
    file: "api+/web_app+/cmpc_dashboard.search.ts",
    method: "post",
    path: "/api/web_app/cmpc_dashboard/search",
    summary:
      "POST /cmpc_dashboard/search {q: {f: {shipment_id}}}: the truck and truck-diameter measurements of one shipment.",
    body: CmpcSearchSchema,
  },
  {
    file: "api+/web_app+/containers+/bill_of_ladings.$id.ts",
    method: "get",
    path: "/api/web_app/containers/bill_of_ladings/{id}",
    summary: "GET /containers/bill_of_ladings/{id}: one bill of lading with its containers.",
  },
  {
    file: "api+/web_app+/containers+/bill_of_ladings.$id.ts",
    method: "patch",
    path: "/api/web_app/containers/bill_of_ladings/{id}",
    summary:
      "PATCH /containers/bill_of_ladings/{id}: name, token (any value rotates the public link), contract, assortment, archived.",
    body: BillOfLadingPatchSchema,
  },
  {
    file: "api+/web_app+/containers+/bill_of_ladings.list.ts",
    method: "get",
    path: "/api/web_app/containers/bill_of_ladings/list",
    summary: "GET /containers/bill_of_ladings/list: the organisation's bills of lading as a lookup.",
  },
  {
    file: "api+/web_app+/containers+/bill_of_ladings.ts",
    method: "post",
    path: "/api/web_app/containers/bill_of_ladings",
    created: true,
    summary: "POST /containers/bill_of_ladings {name}: a new bill of lading (201).",
    body: BillOfLadingCreateSchema,
  },
  {
    file: "api+/web_app+/containers+/container_filter.ts",
    method: "post",
    path: "/api/web_app/containers/container_filter",
    summary:
      "POST /containers/container_filter: bills of lading with container count, log count and volume, each with its containers.",
    body: ContainerFilterSchema,
  },
  {
    file: "api+/web_app+/containers+/containers.$id.ts",
    method: "get",
    path: "/api/web_app/containers/containers/{id}",
    summary: "GET /containers/containers/{id}: one container.",
  },
  {
    file: "api+/web_app+/containers+/containers.$id.ts",
    method: "patch",
    path: "/api/web_app/containers/containers/{id}",
    summary: "PATCH /containers/containers/{id}: name, bill, seal number, weight, width, height, tare and net weight.",
    body: ContainerPatchSchema,
  },
  {
    file: "api+/web_app+/containers+/containers.list.ts",
    method: "get",
    path: "/api/web_app/containers/containers/list",
    summary: "GET /containers/containers/list: the organisation's containers as a lookup.",
  },
  {
    file: "api+/web_app+/containers+/containers.ts",
    method: "get",
    path: "/api/web_app/containers/containers",
    summary: "GET /containers/containers?bol_id=: the containers of a bill of lading.",
  },
  {
    file: "api+/web_app+/containers+/containers.ts",
    method: "post",
    path: "/api/web_app/containers/containers",
    created: true,
    summary:
      "POST /containers/containers {container: {bill_of_lading_id, name: [...], tare_weight, net_weight}}: one container per name (201).",
    body: ContainersCreateSchema,
  },
  {
    file: "api+/web_app+/containers+/contracts.ts",
    method: "get",
    path: "/api/web_app/containers/contracts",
    summary: "GET /containers/contracts: the organisation's contracts as a lookup.",
  },
  {
    file: "api+/web_app+/containers+/measurements.$id.ts",
    method: "get",
    path: "/api/web_app/containers/measurements/{id}",
    summary: "GET /containers/measurements/{id}: one container measurement (extra_fields=logs,references).",
  },
  {
    file: "api+/web_app+/containers+/measurements.$id.ts",
    method: "patch",
    path: "/api/web_app/containers/measurements/{id}",
    summary:
      "PATCH /containers/measurements/{id}: comment, custom_fields, locked_at; logs, logs_removed, references, volume_formula, log_length (409 while locked).",
    body: ContainerMeasurementPatchSchema,
  },
  {
    file: "api+/web_app+/containers+/measurements.batch_actions.ts",
    method: "patch",
    path: "/api/web_app/containers/measurements/batch_actions",
    summary:
      "PATCH /containers/measurements/batch_actions {measurement_ids and one of container_id, locked_at, delete}: all or nothing.",
    body: ContainerBatchSchema,
  },
  {
    file: "api+/web_app+/containers+/measurements.ts",
    method: "get",
    path: "/api/web_app/containers/measurements",
    summary: "GET /containers/measurements?container_id=: the container's measurement cards.",
  },
  {
    file: "api+/web_app+/dashboard_filter+/cmpc.ts",
    method: "get",
    path: "/api/web_app/dashboard_filter/cmpc",
    summary:
      "GET /dashboard_filter/cmpc?page=&shipment_number=&created_at_start=&created_at_end=&route_status=: shipments, meta, pagination, summary.",
  },
  {
    file: "api+/web_app+/measurements+/cmpc.$method.$id.ts",
    method: "get",
    path: "/api/web_app/measurements/cmpc/{method}/{id}",
    summary: "GET /measurements/cmpc/{truck|truck_diameter}/{id}: one measurement of a shipment.",
  },
  {
    file: "api+/web_app+/measurements+/cmpc.$method.$id.ts",
    method: "patch",
    path: "/api/web_app/measurements/cmpc/{method}/{id}",
    summary:
      "PATCH /measurements/cmpc/truck_diameter/{id} {logs, logs_removed, references, volume_formula}; PATCH /measurements/cmpc/truck/{id} {references, volume_formula}.",
    body: TruckDiameterPatchSchema,
  },
  {
    file: "api+/web_app+/reports+/$id.add_measurements.ts",
    method: "patch",
    path: "/api/web_app/reports/{id}/add_measurements",
    summary:
      "PATCH /reports/{id}/add_measurements {measurement_ids}: added and not added counts; inventory-locked measurements skipped.",
    body: ReportAddMeasurementsSchema,
  },
  {
    file: "api+/web_app+/reports+/$id.confirm.ts",
    method: "patch",
    path: "/api/web_app/reports/{id}/confirm",
    summary: "PATCH /reports/{id}/confirm: the recipient confirms (one way; 409 the second time).",
  },
  {
    file: "api+/web_app+/reports+/$id.ts",
    method: "get",
    path: "/api/web_app/reports/{id}",
    summary:
      "GET /reports/{id}: the report with its tallies by diameter, assortment and cull; sets seen_at for the receiving side.",
  },
  {
    file: "api+/web_app+/reports+/$reportId.storage.$storageId.ts",
    method: "patch",
    path: "/api/web_app/reports/{reportId}/storage/{storageId}",
    summary:
      "PATCH /reports/{reportId}/storage/{storageId}: adds the storage's measurements to the report, with the counts.",
  },
  {
    file: "api+/web_app+/reports+/_route.ts",
    method: "get",
    path: "/api/web_app/reports",
    summary: "GET /reports: the organisation's reports and those sent to it.",
  },
  {
    file: "api+/web_app+/reports+/_route.ts",
    method: "post",
    path: "/api/web_app/reports",
    created: true,
    summary:
      "POST /reports {name, volume_formula, volume_unit, reported_at, recipient_registration_code}: a new report (201).",
    body: ReportCreateSchema,
  },
  {
    file: "api+/web_app+/reports+/storage.$id.ts",
    method: "post",
    path: "/api/web_app/reports/storage/{id}",
    created: true,
    summary: "POST /reports/storage/{id} {volume_formula}: a report of the storage's measurements, generating.",
    body: ReportStorageSchema,
  },
  {
    file: "api+/web_app+/shipments.list.ts",
    method: "get",
    path: "/api/web_app/shipments/list",
    summary: "GET /shipments/list: the organisation's shipments as a lookup (id, number, created_at), newest first.",
  },
];

const DEVICE_UPLOADS: Record<string, Schema> = {
  "/api/device/measurements": DeviceMeasurementSchema,
  "/api/device/lumber_measurements": LumberDeviceMeasurementSchema,
  "/api/device/truck_measurements": TruckDeviceMeasurementSchema,
  "/api/device/container_measurements": ContainerDeviceMeasurementSchema,
  "/api/device/truck_diameter_measurements": TruckDiameterDeviceSchema,
};

export const API_OPERATIONS: ApiOperation[] = TABLE.map((op) =>
  op.method === "post" && DEVICE_UPLOADS[op.path] ? { ...op, multipart: DEVICE_UPLOADS[op.path] } : op,
);

/** Worked request bodies: shown in the document, and tests/unit/openapi.test.ts parses each with its schema. */
export const API_EXAMPLES: Record<string, unknown> = {
  // timber
  "patch /api/web_app/measurements/{id}": { log_length: 4, volume_formula: "cylinder", comment: "Re-measured" },
  "patch /api/web_app/measurements/move_storage": { move_storage: [{ measurement_id: 42, storage_id: 7 }] },
  "delete /api/web_app/measurements": { measurement_ids: [42, 43] },
  "post /api/web_app/inventories": { storage_id: 7 },
  // trucks, shipments
  "patch /api/web_app/truck_measurements/{id}": { loads: [{ id: 5, height: 2.6 }], loads_removed: [6] },
  "patch /api/web_app/measurements/cmpc/{method}/{id}": { logs: [{ id: 5, r: 50 }], logs_removed: [6] },
  // lumber
  "patch /api/web_app/lumber_measurements/{id}": { planks_removed: [311] },
  // containers
  "post /api/web_app/containers/bill_of_ladings": { bill_of_lading: { name: "BL-77" } },
  "patch /api/web_app/containers/measurements/{id}": { comment: "Hold 3", logs_removed: [12] },
  "patch /api/web_app/containers/measurements/batch_actions": {
    measurement_ids: [42, 43],
    locked_at: "2026-11-22T10:00:00Z",
  },
  // accounts, reports
  "post /api/web_app/logins": { credentials: { email: "mari@example.com", password: "correct horse battery" } },
  "post /api/web_app/mixed_stack_reports": { name: "Landing 4, November" },
};

/** Query-string parameters of the operations that read them ("method path"). */
const QUERY: Record<string, QueryParam[]> = {};
const listParam = (name: string, description: string): QueryParam => ({
  name,
  schema: { type: "string", pattern: "^[a-z_]+(,[a-z_]+)*$" },
  description,
});
const fieldsParams = [
  listParam("fields", "Comma-separated columns to answer (all when absent)."),
  listParam("extra_fields", "Comma-separated extras: logs or planks, custom_fields, comment."),
];
QUERY["get /api/web_app/measurements/{id}"] = fieldsParams;
QUERY["get /api/web_app/lumber_measurements/{id}"] = fieldsParams;
QUERY["get /api/web_app/measurements/{id}/history"] = [
  {
    name: "kind",
    schema: { type: "string", enum: MEASUREMENT_KIND_NAMES, default: "timber" },
    description: "The measurement's kind (its table); timber when absent.",
  },
];
QUERY["get /api/web_app/analyze_reports/{id}"] = [
  { name: "page", schema: { type: "integer", minimum: 1, default: 1 }, description: "The page of cases." },
];
for (const path of ["/api/web_app/users", "/api/web_app/devices"])
  QUERY[`get ${path}`] = [{ name: "q", schema: { type: "string" }, description: "Search text (name or e-mail)." }];
QUERY["get /api/web_app/containers/containers"] = [
  { name: "bol_id", schema: { type: "integer", minimum: 1 }, description: "The bill of lading's containers." },
];
QUERY["get /api/web_app/containers/measurements"] = [
  { name: "container_id", schema: { type: "integer", minimum: 1 }, description: "The container's measurements." },
];

/** Query parameters from a zod schema of string fields (the dashboard filters): one per property. */
function queryFromSchema(schema: Schema, description: string): QueryParam[] {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any", target: "draft-2020-12" }) as {
    properties?: Record<string, Record<string, unknown>>;
  };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({ name, schema: s, description }));
}
QUERY["get /api/web_app/dashboard_filter"] = queryFromSchema(
  dashboardFilterSchema("UTC"),
  "A dashboard filter (dates in the user's time zone).",
);
QUERY["get /api/web_app/measurements/markers/storage/{id}"] = QUERY["get /api/web_app/dashboard_filter"];
QUERY["get /api/web_app/dashboard_filter/cmpc"] = queryFromSchema(
  cmpcFilterSchema("UTC"),
  "The shipments dashboard's filter.",
);
QUERY["get /api/web_app/inventories"] = [
  ...queryFromSchema(InventoryFilterSchema, "The inventories list's filter."),
  { name: "page", schema: { type: "integer", minimum: 1, default: 1 }, description: "The page." },
];

/** The answers of the main calls whose body the document spells out (others: a JSON object). */
const HISTORY_ENTRY = {
  type: "object",
  required: ["id", "action", "at", "volume_before", "volume_after", "volume_change", "changes", "hash"],
  properties: {
    id: { type: "integer" },
    action: { type: "string", enum: [...HISTORY_ACTIONS] },
    at: { type: "string", format: "date-time" },
    user_id: { type: ["integer", "null"] },
    user_name: { type: ["string", "null"] },
    device_id: { type: ["integer", "null"] },
    device_name: { type: ["string", "null"] },
    volume_before: { type: ["number", "null"], description: "m³" },
    volume_after: { type: ["number", "null"], description: "m³" },
    volume_change: { type: ["number", "null"], description: "m³, after minus before" },
    changes: {
      type: "object",
      required: ["fields"],
      properties: {
        fields: {
          type: "object",
          additionalProperties: { type: "object", properties: { before: {}, after: {} } },
        },
      },
      additionalProperties: {
        type: "object",
        description: "logs, planks or loads: counts and ids of the rows added, removed and changed",
        properties: {
          added: { type: "integer" },
          removed: { type: "integer" },
          changed: { type: "integer" },
          added_ids: { type: "array", items: { type: "integer" } },
          removed_ids: { type: "array", items: { type: "integer" } },
          changed_ids: { type: "array", items: { type: "integer" } },
        },
      },
    },
    hash: { type: ["string", "null"], pattern: "^[0-9a-f]{64}$", description: "SHA-256 link of the chain" },
  },
};
export const API_RESPONSES: Record<string, Record<string, unknown>> = {
  "get /api/web_app/measurements/{id}/history": {
    type: "object",
    required: ["data", "volume_unit"],
    properties: { data: { type: "array", items: HISTORY_ENTRY }, volume_unit: { const: "m^3" } },
  },
  "patch /api/web_app/containers/measurements/batch_actions": {
    type: "object",
    required: ["affected"],
    properties: { affected: { type: "integer", minimum: 0 } },
  },
};

const ERROR_BODY = {
  type: "object",
  required: ["error"],
  properties: { error: { type: "string", description: "A code, never an English sentence" } },
};
const FIELD_ERRORS = {
  type: "object",
  required: ["error", "errors"],
  properties: {
    error: { type: "string", examples: ["validation_failed"] },
    errors: {
      type: "object",
      description: "Translation keys by payload path (dotted, e.g. logs.0.r); `_` for the whole payload",
      additionalProperties: { type: "array", items: { type: "string" } },
    },
  },
  example: { error: "validation_failed", errors: { "logs.0.r": ["timber:errors.positive"] } },
};
const errorResponse = (description: string, schema = "Error") => ({
  description,
  content: { "application/json": { schema: { $ref: `#/components/schemas/${schema}` } } },
});
const ERROR_RESPONSES = {
  BadRequest: errorResponse("Bad request (e.g. unknown_intent, a body that is not JSON)"),
  Unauthorized: errorResponse("Not signed in, or the token expired"),
  Forbidden: errorResponse("Signed in but not allowed: the role, or feature_unavailable (with `feature`)"),
  NotFound: errorResponse("Not found, or another organisation's record"),
  Conflict: errorResponse("The record is locked (an inventory or a container) or changed meanwhile", "FieldErrors"),
  Unprocessable: errorResponse("Bad input: field errors keyed by payload path", "FieldErrors"),
};

/** Calls made before signing in (no token): no 401 / 403 described, no security. */
const PUBLIC_PATHS = new Set([
  "/api/billing/stripe/webhook",
  "/api/device/pairings",
  "/api/web_app/logins",
  "/api/web_app/logins/forgot_password",
  "/api/web_app/logins/otp",
  "/api/web_app/logins/reset_password",
  "/api/web_app/registration",
]);

/** A path parameter: the ids are positive integers, the rest strings. */
function pathParam(name: string) {
  const integer = name === "id" || /_id$|Id$/.test(name);
  return {
    name,
    in: "path",
    required: true,
    schema: integer
      ? { type: "integer", minimum: 1 }
      : name === "method"
        ? { type: "string", enum: ["truck", "truck_diameter"] }
        : { type: "string" },
  };
}

const nameOf = new Map<Schema, string>();
function schemaRef(schema: Schema, components: Record<string, unknown>) {
  let name = nameOf.get(schema);
  if (!name) {
    const found = Object.entries(SCHEMAS).find(([, s]) => s === schema);
    name = found ? found[0] : `Schema${nameOf.size + 1}`;
    nameOf.set(schema, name);
  }
  if (!components[name]) {
    const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any", target: "draft-2020-12" }) as Record<
      string,
      unknown
    >;
    delete json.$schema;
    components[name] = json;
  }
  return { $ref: `#/components/schemas/${name}` };
}

/** Named components: the schemas' own names. */
const SCHEMAS: Record<string, Schema> = {
  AcceptInvitationSchema,
  AccountPatchSchema,
  AddItemSchema,
  AnalyzeReportRequestSchema,
  AssortmentCreateSchema,
  AssortmentPatchSchema,
  ChangeExpiredPasswordSchema,
  CheckoutSubscriptionSchema,
  CheckpointBatchSchema,
  CreateInventorySchema,
  CullCreateSchema,
  CullPatchSchema,
  CustomFieldCreateSchema,
  CustomFieldPatchSchema,
  CustomFieldValuePatchSchema,
  CustomFieldValueSchema,
  DeletedSearchSchema,
  DeviceMeasurementSchema,
  DevicePairingSchema,
  DevicePatchSchema,
  DiameterProfileCreateSchema,
  DiameterProfilePatchSchema,
  ForgotPasswordSchema,
  InviteSchema,
  LoginApiSchema,
  LumberDeviceMeasurementSchema,
  LumberIdsSchema,
  LumberPatchSchema,
  LumberProductCreateSchema,
  LumberProductPatchSchema,
  LumberSearchSchema,
  ManualMeasurementSchema,
  MeasurementIdsSchema,
  MeasurementPatchSchema,
  MixedStackAddSchema,
  MixedStackCreateSchema,
  MixedStackPatchSchema,
  MixedStackRemoveSchema,
  MoveStorageSchema,
  OrganizationPatchSchema,
  OtpLoginApiSchema,
  PicturePackageSchema,
  RegistrationApiSchema,
  ResetPasswordByTokenSchema,
  RoleCreateSchema,
  SearchSchema,
  TruckDeviceMeasurementSchema,
  TruckIdsSchema,
  TruckPatchSchema,
  TruckRouteFinishSchema,
  TruckRouteStartSchema,
  TruckSearchSchema,
  TwoFactorSchema,
  UpdateItemSchema,
  UserPatchSchema,
};

let cached: Record<string, unknown> | undefined;

/** The OpenAPI 3.1 document (built once per process). */
export function openApiDocument(): Record<string, unknown> {
  if (cached) return cached;
  const components: Record<string, unknown> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of API_OPERATIONS) {
    const key = `${op.method} ${op.path}`;
    const params: Record<string, unknown>[] = [...op.path.matchAll(/\{([A-Za-z_]+)\}/g)].map((m) => pathParam(m[1]));
    for (const q of QUERY[key] ?? [])
      params.push({ name: q.name, in: "query", required: false, schema: q.schema, description: q.description });
    const example = API_EXAMPLES[key];
    const takesInput = Boolean(op.body || op.multipart || QUERY[key]?.length);
    const device = op.path.startsWith("/api/device");
    const publicCall = PUBLIC_PATHS.has(op.path);
    const success = op.created ? "201" : "200";
    const responses: Record<string, unknown> = {
      [success]: {
        description: op.created ? "Created (JSON)" : "Success (JSON)",
        content: { "application/json": { schema: API_RESPONSES[key] ?? { type: "object" } } },
      },
    };
    if (!publicCall) {
      responses["401"] = { $ref: "#/components/responses/Unauthorized" };
      responses["403"] = { $ref: "#/components/responses/Forbidden" };
    }
    if (params.some((p) => p.in === "path")) responses["404"] = { $ref: "#/components/responses/NotFound" };
    if (op.method === "patch" || op.method === "delete") responses["409"] = { $ref: "#/components/responses/Conflict" };
    if (takesInput) {
      responses["400"] = { $ref: "#/components/responses/BadRequest" };
      responses["422"] = { $ref: "#/components/responses/Unprocessable" };
    }
    const operation: Record<string, unknown> = {
      operationId: `${op.method}_${op.path.replace(/[^a-z0-9]+/gi, "_").replace(/^_|_$/g, "")}`,
      summary: op.summary || `${op.method.toUpperCase()} ${op.path}`,
      tags: [op.path.split("/")[2] ?? "api"],
      "x-route-file": `app/routes/${op.file}`,
      parameters: params,
      security: publicCall ? [] : device ? [{ deviceToken: [] }] : [{ bearer: [] }, { session: [] }],
      responses,
    };
    if (op.body)
      operation.requestBody = {
        required: true,
        content: {
          "application/json": {
            schema: schemaRef(op.body, components),
            ...(example === undefined ? {} : { example }),
          },
        },
      };
    if (op.multipart)
      operation.requestBody = {
        required: true,
        content: {
          "multipart/form-data": {
            schema: {
              type: "object",
              required: ["photo", "measurement"],
              properties: {
                photo: { type: "string", contentMediaType: "image/jpeg" },
                measurement: { ...schemaRef(op.multipart, components), description: "JSON text" },
              },
            },
          },
        },
      };
    (paths[op.path] ??= {})[op.method] = operation;
  }
  cached = {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Timber measurement platform API",
      version: "1",
      description:
        "The web app API (/api/web_app, bearer token from POST /api/web_app/logins or the screen session) and the device API (/api/device, the paired device's token). Request bodies are generated from the zod schemas the routes parse them with.",
    },
    servers: [{ url: "/" }],
    paths,
    components: {
      schemas: { ...components, Error: ERROR_BODY, FieldErrors: FIELD_ERRORS },
      responses: ERROR_RESPONSES,
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer" },
        session: { type: "apiKey", in: "cookie", name: "__session" },
        deviceToken: { type: "http", scheme: "bearer", description: "The paired device's token" },
      },
    },
  };
  return cached;
}
