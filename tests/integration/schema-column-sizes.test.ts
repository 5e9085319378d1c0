import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { stringLeaves } from "#tests/helpers/zod-fields";
import { db } from "~/utils/db.server";

// Every string a payload schema (app/utils/schemas) stores has the maximum of its column, so a
// long value is a 422 beside its field and never a database error. Each exported schema names
// the tables it writes; a new schema fails here until it does.
const WRITES: Record<string, string[]> = {
  BillOfLadingFormSchema: ["bill_of_ladings"],
  BillOfLadingCreateSchema: ["bill_of_ladings"],
  BillOfLadingEditFormSchema: ["bill_of_ladings"],
  BillOfLadingPatchSchema: ["bill_of_ladings"],
  ContainersAddFormSchema: ["containers"],
  ContainersCreateSchema: ["containers"],
  ContainerEditFormSchema: ["containers"],
  ContainerPatchSchema: ["containers"],
  ContainerFilterSchema: [],
  ContainerBatchSchema: [],
  ContainerMeasurementPatchSchema: ["container_measurements"],
  ContainerCommentFormSchema: ["container_measurements"],
  ContainerDeviceMeasurementSchema: ["container_measurements"],
  AccountPatchSchema: ["users"],
  AnalyzeReportSchema: ["analyze_reports"],
  AnalyzeReportRequestSchema: ["analyze_reports"],
  AccountSettingsSchema: ["users"],
  AccountSettingsFormSchema: ["users"],
  AcceptInvitationSchema: [],
  QrLabelsSchema: [],
  ChangeExpiredPasswordSchema: [],
  ForgotPasswordSchema: [],
  OtpLoginApiSchema: [],
  TwoFactorSchema: [],
  RegistrationApiSchema: ["organizations", "users"],
  ResetPasswordApiSchema: [],
  ResetPasswordByTokenSchema: [],
  SignupFormSchema: ["organizations", "users"],
  SignupSchema: ["organizations", "users"],
  SignupStep1Schema: ["organizations", "users"],
  // The screen forms moved onto conform (decision 010).
  SignupStep1FormSchema: ["organizations", "users"],
  ResetPasswordFormSchema: [],
  AcceptInvitationFormSchema: [],
  TwoFactorConfirmFormSchema: [],
  TwoFactorProofFormSchema: [],
  RoleFormSchema: ["roles"],
  CheckoutFormSchema: ["subscription_items"],
  TrialFormSchema: ["subscription_items"],
  CustomFieldValueRowFormSchema: ["custom_field_values"],
  BulkMoveFormSchema: [],
  BulkDeleteFormSchema: [],
  BulkMixedStackFormSchema: [],
  BulkBarFormSchema: [],
  InviteSchema: ["users"],
  InviteFieldsSchema: ["users"],
  UserRenameSchema: ["users"],
  OrganizationFieldsSchema: ["organizations"],
  OrganizationFormSchema: ["organizations"],
  OrganizationPatchSchema: ["organizations"],
  RoleCreateSchema: ["roles"],
  UserPatchSchema: ["users"],
  CredentialsSchema: [],
  LoginApiSchema: [],
  LoginFormSchema: [],
  AddItemSchema: ["subscription_items"],
  CheckoutSubscriptionSchema: ["subscription_items"],
  PicturePackageSchema: [],
  UpdateItemSchema: ["subscription_items"],
  CustomFieldCreateSchema: ["custom_fields"],
  CustomFieldFieldsSchema: ["custom_fields"],
  CustomFieldEditFormSchema: ["custom_fields"],
  CustomFieldPatchSchema: ["custom_fields"],
  CustomFieldValuePatchSchema: ["custom_field_values"],
  CustomFieldValueSchema: ["custom_field_values"],
  CustomFieldValueFieldsSchema: ["custom_field_values"],
  DevicePairingSchema: ["devices"],
  DevicePatchSchema: ["devices"],
  DeviceDetailsSchema: ["devices"],
  ExportIdSchema: [],
  IdListSchema: [],
  ReportTypeFieldSchema: [],
  LumberDeviceMeasurementSchema: ["lumber_measurements"],
  LumberIdsSchema: [],
  LumberPatchSchema: ["lumber_measurements", "planks"],
  LumberSearchSchema: [],
  TruckLoadInputSchema: ["truck_loads"],
  TruckPatchSchema: ["truck_measurements", "truck_loads"],
  TruckLoadsFormSchema: ["truck_measurements", "truck_loads"],
  TruckSearchSchema: [],
  TruckIdsSchema: [],
  TruckDashboardFilterSchema: [],
  TruckRouteStartSchema: ["truck_routes"],
  TruckRouteFinishSchema: ["truck_routes"],
  CheckpointInputSchema: ["truck_checkpoints"],
  CheckpointBatchSchema: ["truck_checkpoints"],
  UploadedTruckLoadSchema: ["truck_loads"],
  TruckDeviceMeasurementSchema: ["truck_measurements", "trucks"],
  TruckDiameterDeviceSchema: ["truck_diameter_measurements"],
  TruckDiameterPatchSchema: ["truck_diameter_measurements", "truck_diameter_logs"],
  TruckCmpcPatchSchema: ["truck_measurements"],
  CmpcSearchSchema: [],
  PlankInputSchema: ["planks"],
  UploadedPlankSchema: ["planks"],
  AssortmentCreateSchema: ["assortments"],
  AssortmentPatchSchema: ["assortments"],
  CullCreateSchema: ["culls"],
  CullPatchSchema: ["culls"],
  DiameterProfileCreateSchema: ["diameter_profiles"],
  DiameterProfilePatchSchema: ["diameter_profiles"],
  LumberProductCreateSchema: ["lumber_products"],
  LumberProductPatchSchema: ["lumber_products"],
  NamedCreateSchema: [],
  NamedPatchSchema: [],
  woodQualityCreate: [],
  woodQualityPatch: [],
  woodTypeCreate: [],
  woodTypePatch: [],
  CustomFieldValuesSchema: [],
  NewPasswordSchema: [],
  DashboardFilterSchema: [],
  // Ids and a month only.
  CreateInventorySchema: [],
  InventoryFilterSchema: [],
  InventorySelectionSchema: [],
  DeletedSearchSchema: [],
  DeviceMeasurementSchema: ["measurements"],
  LogInputSchema: ["logs"],
  ManualMeasurementSchema: ["measurements"],
  MeasurementIdsSchema: [],
  MeasurementPatchSchema: ["measurements"],
  MetrologySchema: ["measurements"],
  MoveStorageSchema: [],
  PointSchema: [],
  ReferenceSchema: ["measurement_references"],
  SearchSchema: [],
  StorageSchema: ["storages"],
  MixedStackCreateSchema: ["mixed_stack_reports"],
  MixedStackPatchSchema: ["mixed_stack_reports"],
  MixedStackAddSchema: ["mixed_stack_report_measurements"],
  MixedStackRemoveSchema: [],
  ReportCreateSchema: ["reports"],
  ReportStorageSchema: ["reports"],
  ReportAddMeasurementsSchema: ["report_measurements"],
  // target (varchar 32, an enum here); the columns and their headers live in the json column.
  ExportLayoutFormSchema: ["export_layouts"],
};

async function payloadSchemas() {
  const dir = path.join(process.cwd(), "app/utils/schemas");
  const found: Record<string, z.ZodType> = {};
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
    const mod = await import(path.join(dir, file));
    for (const [name, value] of Object.entries(mod)) if (value instanceof z.ZodType) found[name] = value;
  }
  return found;
}

async function stringColumns() {
  const rows = await sql<{ table_name: string; column_name: string; size: number }>`
    SELECT TABLE_NAME AS table_name, COLUMN_NAME AS column_name, CHARACTER_MAXIMUM_LENGTH AS size
    FROM information_schema.COLUMNS
    WHERE TABLE_SCHEMA = DATABASE() AND DATA_TYPE IN ('varchar', 'char')`.execute(db());
  const columns = new Map<string, Map<string, number>>();
  for (const r of rows.rows) {
    if (!columns.has(r.table_name)) columns.set(r.table_name, new Map());
    columns.get(r.table_name)!.set(r.column_name, Number(r.size));
  }
  return columns;
}

describe("schema maximums equal column sizes", () => {
  it("every stored string field of every payload schema has its column's maximum", async () => {
    const schemas = await payloadSchemas();
    const columns = await stringColumns();
    const tables = new Set(
      (
        await sql<{
          name: string;
        }>`SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()`.execute(db())
      ).rows.map((r) => r.name),
    );
    expect(Object.keys(schemas).filter((name) => !(name in WRITES))).toEqual([]);
    const problems: string[] = [];
    for (const [name, schema] of Object.entries(schemas)) {
      for (const table of WRITES[name]) if (!tables.has(table)) problems.push(`${name}: no table ${table}`);
      for (const leaf of stringLeaves(schema)) {
        for (const table of WRITES[name]) {
          const size = columns.get(table)?.get(leaf.key);
          if (size !== undefined && leaf.max !== size)
            problems.push(`${name}.${leaf.path}: max ${leaf.max ?? "none"}, ${table}.${leaf.key} is ${size}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
