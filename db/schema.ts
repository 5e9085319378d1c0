import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

// The typed shape of the MySQL product database. Keep in step with db/migrations.

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

export type RoleName = "viewer" | "measurer" | "admin" | "super_admin";
export type AssignableType = "Organization" | "Storage" | "StorageGroup";
export type MeasurementMode = "timber" | "container" | "truck" | "lumber" | "cmpc";
export type VolumeUnit = "m^3" | "ft^3" | "fbm" | "pmt" | "stere";

export interface OrganizationsTable {
  id: Generated<number>;
  name: string;
  registration_code: string | null;
  country: string | null;
  city: string | null;
  address: string | null;
  postal_code: string | null;
  vat_code: string | null;
  invoice_email: string | null;
  default_storage_id: number | null;
  currency: Generated<string>;
  contact_person: string | null;
  phone: string | null;
  token: string | null;
  features: ColumnType<string[], string | undefined, string>;
  device_activation_code: string | null;
  cmpc_enabled: ColumnType<boolean, boolean | undefined, boolean>;
  vmu_enabled: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface UsersTable {
  id: Generated<number>;
  email: string;
  name: string | null;
  password_hash: string | null;
  locale: Generated<string>;
  time_zone: Generated<string>;
  volume_unit: ColumnType<VolumeUnit, VolumeUnit | undefined, VolumeUnit>;
  length_unit: Generated<string>;
  reference_unit: Generated<string>;
  weight_unit: Generated<string>;
  density_unit: Generated<string>;
  diameter_unit: Generated<string>;
  lumber_plank_unit: Generated<string>;
  rounding_precision: Generated<number>;
  recent_measurement_mode: ColumnType<MeasurementMode, MeasurementMode | undefined, MeasurementMode>;
  recent_organization_id: number | null;
  password_expiry: Date | null;
  otp_secret: string | null;
  /** A new secret waiting for its first code (two-factor set-up), then moved to otp_secret. */
  otp_pending_secret: string | null;
  otp_enabled: ColumnType<boolean, boolean | undefined, boolean>;
  verified_at: Date | null;
  verification_sent_at: Date | null;
  failed_login_count: Generated<number>;
  locked_until: Date | null;
  devices_updated_at: Date | null;
  otp_backup_codes: ColumnType<string[] | null, string | null | undefined, string | null>;
  disabled_at: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface RolesTable {
  id: Generated<number>;
  user_id: number;
  organization_id: number;
  name: RoleName;
  assignable_type: AssignableType;
  assignable_id: number;
  created_at: CreatedAt;
}

export interface SessionsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  kind: "web" | "api";
  ip: string | null;
  user_agent: string | null;
  created_at: CreatedAt;
  expires_at: Date;
  revoked_at: Date | null;
}

export interface StorageGroupsTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  created_at: CreatedAt;
}

export interface StoragesTable {
  id: Generated<number>;
  organization_id: number;
  storage_group_id: number | null;
  name: string;
  latitude: number | null;
  longitude: number | null;
  storage_state_id: Generated<number>;
  last_inventory_confirmed_at: Date | null;
  deleted_at: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface LookupTable {
  id: Generated<number>;
  organization_id: number | null;
  name: string;
  archived: Generated<boolean>;
  created_at: CreatedAt;
}

export interface VolumeFormulasTable {
  key: string;
  unit: string;
  position: number;
}

export interface CullsTable {
  id: Generated<number>;
  organization_id: number | null;
  reason: string;
  min: number | null;
  max: number | null;
  archived: Generated<boolean>;
  created_at: CreatedAt;
}

export interface AssortmentsTable {
  id: Generated<number>;
  organization_id: number | null;
  name: string;
  archived: Generated<boolean>;
  wood_type_id: number | null;
  wood_quality_id: number | null;
  log_length: number | null;
  weight_density: number | null;
  min_diameter: number | null;
  max_diameter: number | null;
  diameter_percentage: number | null;
  price_cents: number | null;
  price_per_log_cents: number | null;
  volume_unit: ColumnType<VolumeUnit, VolumeUnit | undefined, VolumeUnit>;
  custom_fields: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: CreatedAt;
}

export interface Metrology {
  angle_validation?: { angle?: number; status: number };
  interference?: { score?: number; status: number };
  brightness?: { score?: number; status: number };
  is_valid?: boolean;
}
export interface Point {
  x: number;
  y: number;
  modified_at?: string;
}

export interface MeasurementsTable {
  id: Generated<number>;
  organization_id: number;
  storage_id: number;
  device_id: number | null;
  user_id: number | null;
  client_id: string | null;
  type: Generated<string>;
  photo_file_name: string | null;
  photo_key: string | null;
  photo_optimized_key: string | null;
  photo_popup_key: string | null;
  photo_thumbnail_key: string | null;
  photo_width: number | null;
  photo_height: number | null;
  photo_status: Generated<number>;
  photo_attempts: Generated<number>;
  photo_error: string | null;
  photo_enqueued_at: Date | null;
  taken_at: Date;
  measured_at: Date | null;
  measurement_type_id: Generated<number>;
  latitude: number | null;
  longitude: number | null;
  log_length: number | null;
  logs_count: Generated<number>;
  volume: Generated<number>;
  initial_volume: number | null;
  coefficient: number | null;
  wood_type_id: number | null;
  wood_quality_id: number | null;
  assortment_id: number | null;
  volume_formula: Generated<string>;
  inventory_id: number | null;
  comment: string | null;
  metrology: ColumnType<Metrology | null, string | null | undefined, string | null>;
  shipment_number: string | null;
  load_lines: ColumnType<Point[][] | null, string | null | undefined, string | null>;
  measurement_area: ColumnType<Point[] | null, string | null | undefined, string | null>;
  heights: ColumnType<number[] | null, string | null | undefined, string | null>;
  custom_fields: ColumnType<Record<string, unknown>, string | undefined, string>;
  poor_detection: ColumnType<boolean, boolean | undefined, boolean>;
  weight: number | null;
  weight_density: number | null;
  /** Duplicate analysis fingerprints (issue 19), filled by the analysis when missing. */
  photo_sha256: string | null;
  photo_dhash: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Date | null;
}

export interface LogsTable {
  id: Generated<number>;
  organization_id: number;
  measurement_id: number;
  x: number;
  y: number;
  r: number;
  d: number;
  v: number;
  cull_id: number | null;
  assortment_id: number | null;
  is_out_of_range: ColumnType<boolean, boolean | undefined, boolean>;
  is_deleted: ColumnType<boolean, boolean | undefined, boolean>;
  modified_at: Date | null;
}

export interface MeasurementReferencesTable {
  id: Generated<number>;
  organization_id: number;
  measurement_id: number;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  size: number;
}

export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  created_at: CreatedAt;
  sent_at: Date | null;
}

export interface DevicesTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number | null;
  name: string;
  affiliation: string | null;
  hw_id: string;
  token_hash: string;
  all_storages: ColumnType<boolean, boolean | undefined, boolean>;
  default_storage_id: number | null;
  locked: ColumnType<boolean, boolean | undefined, boolean>;
  last_used: Date | null;
  created_at: CreatedAt;
  deleted_at: Date | null;
  /** The subscription package whose seat the device occupies (billing). */
  package_id: string | null;
}

export interface DeviceStoragesTable {
  device_id: number;
  storage_id: number;
}

export interface DeviceInvitationsTable {
  id: Generated<number>;
  organization_id: number;
  sent_to: string;
  token_hash: string;
  sent_at: CreatedAt;
  accepted_at: Date | null;
}

export type CustomFieldSource =
  "measurement" | "truck_measurement" | "container_measurement" | "lumber_measurement" | "storage";
export type CustomFieldDataType = "datetime" | "integer" | "boolean" | "string" | "text" | "decimal" | "date";

export interface CustomFieldsTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  key: string;
  source_key: CustomFieldSource;
  data_type: CustomFieldDataType;
  searchable: ColumnType<boolean, boolean | undefined, boolean>;
  required: ColumnType<boolean, boolean | undefined, boolean>;
  archived: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
}

export interface CustomFieldValuesTable {
  id: Generated<number>;
  organization_id: number;
  custom_field_id: number;
  value: string;
  rank: Generated<number>;
  archived: ColumnType<boolean, boolean | undefined, boolean>;
}

export type ExportKind = "excel" | "pdf";
/** 0 in progress, 1 done, 2 partially done, 3 failed (spec). */
export type ExportStatus = 0 | 1 | 2 | 3;

export interface ExportsTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number | null;
  kind: ExportKind;
  report_type: string;
  name: string;
  params: ColumnType<Record<string, unknown>, string, string>;
  status: ColumnType<ExportStatus, ExportStatus | undefined, ExportStatus>;
  status_detail: string | null;
  progress: Generated<number>;
  row_count: number | null;
  file_key: string | null;
  file_size: number | null;
  attempts: Generated<number>;
  heartbeat_at: Date | null;
  finished_at: Date | null;
  created_at: CreatedAt;
}

// Billing (issue 5)
export type SubscriptionStatus = "active" | "trialing" | "canceled";
export type InvoiceStatus = "paid" | "open" | "void";
type Flag = ColumnType<boolean, boolean | undefined, boolean>;

export interface BillingAccountsTable {
  organization_id: number;
  provider: ColumnType<"local" | "stripe", "local" | "stripe" | undefined, "local" | "stripe">;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  status: SubscriptionStatus | null;
  interval: "month" | "year" | null;
  paid_until: Date | null;
  trial_end: Date | null;
  trial_used: Flag;
  cancel_at_period_end: Flag;
  billing_currency: Generated<string>;
  collection_method: Generated<string>;
  remaining_measurements: Generated<number>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface SubscriptionItemsTable {
  id: Generated<number>;
  organization_id: number;
  package_id: string;
  quantity: Generated<number>;
  cancelled: Flag;
  stripe_item_id: string | null;
  created_at: CreatedAt;
}

export interface InvoiceLine {
  description: string;
  quantity: number;
  amount_cents: number;
}

export interface InvoicesTable {
  id: Generated<number>;
  organization_id: number;
  number: string;
  total_cents: number;
  currency: Generated<string>;
  lines: ColumnType<InvoiceLine[], string, string>;
  status: InvoiceStatus;
  url: string | null;
  stripe_invoice_id: string | null;
  created_at: CreatedAt;
}

export interface PictureCreditEventsTable {
  id: Generated<number>;
  organization_id: number;
  delta: number;
  reason: string;
  created_at: CreatedAt;
}

export interface BillingEventsTable {
  id: string;
  type: string;
  organization_id: number | null;
  received_at: CreatedAt;
}

export interface LocalCheckoutsTable {
  id: Generated<number>;
  organization_id: number;
  token: string;
  kind: "subscription" | "picture_package";
  payload: ColumnType<unknown, string, string>;
  completed_at: Date | null;
  created_at: CreatedAt;
}

// membership: an existing account is asked to join another organisation (accepted or declined by its owner).
export type UserTokenPurpose = "password_reset" | "invitation" | "verification" | "login_otp" | "membership";

export interface UserTokensTable {
  id: Generated<number>;
  user_id: number;
  organization_id: number | null;
  purpose: UserTokenPurpose;
  token_hash: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: CreatedAt;
}

export interface PasswordHistoryTable {
  id: Generated<number>;
  user_id: number;
  password_hash: string;
  created_at: CreatedAt;
}

export interface DiameterProfilesTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  archived: ColumnType<boolean, boolean | undefined, boolean>;
  default_cull_id: number | null;
  created_at: CreatedAt;
}

export interface DiameterProfileAssortmentsTable {
  diameter_profile_id: number;
  assortment_id: number;
}

export interface LumberProductsTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  plank_length: number;
  plank_width: number;
  plank_height: number;
  created_at: CreatedAt;
}

export interface LumberMeasurementsTable {
  id: Generated<number>;
  organization_id: number;
  storage_id: number;
  device_id: number | null;
  user_id: number | null;
  client_id: string | null;
  lumber_product_id: number | null;
  measurement_type_id: Generated<number>;
  taken_at: Date;
  latitude: number | null;
  longitude: number | null;
  plank_count: Generated<number>;
  /** m³ */
  volume: Generated<number>;
  photo_file_name: string | null;
  photo_key: string | null;
  photo_optimized_key: string | null;
  photo_popup_key: string | null;
  photo_thumbnail_key: string | null;
  photo_width: number | null;
  photo_height: number | null;
  photo_status: Generated<number>;
  photo_attempts: Generated<number>;
  photo_error: string | null;
  photo_enqueued_at: Date | null;
  /** The original photo's SHA-256 (hex), taken at upload (docs/decisions/024-trust.md). */
  photo_sha256: string | null;
  comment: string | null;
  custom_fields: ColumnType<Record<string, unknown>, string | undefined, string>;
  inventory_id: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Date | null;
}

/** A stock-take of one storage (docs/decisions/014-inventories.md). */
export interface InventoriesTable {
  id: Generated<number>;
  organization_id: number;
  storage_id: number;
  previous_inventory_id: number | null;
  created_by: number | null;
  created_at: CreatedAt;
  confirmed_at: Date | null;
  confirmed_by: number | null;
  /** The storage's id while the inventory is open, NULL once confirmed (one open per storage). */
  open_storage_id: number | null;
}

/** A plank end on a lumber photo: a rectangle in image pixels. */
export interface PlanksTable {
  id: Generated<number>;
  organization_id: number;
  lumber_measurement_id: number;
  x: number;
  y: number;
  width: number;
  height: number;
  is_deleted: ColumnType<boolean, boolean | undefined, boolean>;
  modified_at: Date | null;
}

/**
 * A record shared by token (docs/decisions/013-public-links.md). The token is never stored: its
 * SHA-256 finds the link, and the seed gives it back to the owner with the server secret (null
 * for a token made before links were kept here: it works, but cannot be shown again).
 */
export interface PublicLinksTable {
  id: Generated<number>;
  organization_id: number;
  /** A kind of app/models/public-link.server.ts's registry: "measurement", "storage", ... */
  kind: string;
  record_id: number;
  token_hash: string;
  token_seed: string | null;
  /** The sharer's time zone: the public pages show times in it. */
  time_zone: Generated<string>;
  created_by: number | null;
  created_at: CreatedAt;
  rotated_at: Date | null;
  last_opened_at: Date | null;
}

/** Requests of one client address to the public routes in one window (shared by every web process). */
export interface PublicRateLimitsTable {
  client: string;
  /** Unix time of the window's start divided by its length. */
  window_start: number;
  hits: number;
}

/** A truck of the organisation, by its licence plate. */
export interface TrucksTable {
  id: Generated<number>;
  organization_id: number;
  license_plate: string;
  created_at: CreatedAt;
}

/** A truck measurement: the loads on a truck, measured from a side photo (docs/decisions/017-trucks.md). */
export interface TruckMeasurementsTable {
  id: Generated<number>;
  organization_id: number;
  storage_id: number;
  truck_id: number | null;
  device_id: number | null;
  user_id: number | null;
  client_id: string | null;
  shipment_number: string | null;
  measurement_type_id: Generated<number>;
  /** kg */
  weight: number | null;
  /** m³/t */
  weight_density: number | null;
  volume_formula: string | null;
  taken_at: Date;
  measured_at: Date | null;
  latitude: number | null;
  longitude: number | null;
  load_count: Generated<number>;
  /** m³ of the loads' stacked boxes */
  stacked_volume: Generated<number>;
  /** m³ of solid wood (stacked x coefficient) */
  volume: Generated<number>;
  photo_file_name: string | null;
  photo_key: string | null;
  photo_optimized_key: string | null;
  photo_popup_key: string | null;
  photo_thumbnail_key: string | null;
  photo_width: number | null;
  photo_height: number | null;
  photo_status: Generated<number>;
  photo_attempts: Generated<number>;
  photo_error: string | null;
  photo_enqueued_at: Date | null;
  /** The original photo's SHA-256 (hex), taken at upload (docs/decisions/024-trust.md). */
  photo_sha256: string | null;
  comment: string | null;
  custom_fields: ColumnType<Record<string, unknown>, string | undefined, string>;
  inventory_id: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Date | null;
  /** The shipment it belongs to (issue 22, docs/decisions/023-shipments.md). */
  shipment_id: number | null;
  /** Reference lines drawn on the photo (the cmpc editor). */
  reference_lines: ColumnType<ReferenceLineJson[] | null, string | null | undefined, string | null>;
}

/** One load bed of a truck measurement: a stacked box, in metres; volumes in m³. */
export interface TruckLoadsTable {
  id: Generated<number>;
  organization_id: number;
  truck_measurement_id: number;
  load_index: number;
  height: number;
  load_width: number;
  log_length: number;
  coefficient: number;
  stacked_volume: number;
  volume: number;
  wood_type_id: number | null;
  wood_quality_id: number | null;
  assortment_id: number | null;
  load_bed_name: string | null;
}

/** A route a truck drove for a measurement; last_* is its newest checkpoint. */
export interface TruckRoutesTable {
  id: Generated<number>;
  organization_id: number;
  truck_measurement_id: number;
  client_id: string | null;
  started_at: Date;
  finished_at: Date | null;
  last_latitude: number | null;
  last_longitude: number | null;
  last_recorded_at: Date | null;
  created_at: CreatedAt;
}

/** A GPS position a truck's phone sent along a route. */
export interface TruckCheckpointsTable {
  id: Generated<number>;
  organization_id: number;
  truck_route_id: number;
  client_id: string;
  latitude: number;
  longitude: number;
  recorded_at: Date;
  speed: number | null;
  heading: number | null;
}

// Shipments of a pulp mill (issue 22, docs/decisions/023-shipments.md)
export interface ReferenceLineJson {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** metres */
  size: number;
}

/** A delivery, by its number (unique per organisation). */
export interface ShipmentsTable {
  id: Generated<number>;
  organization_id: number;
  number: string;
  created_at: CreatedAt;
}

/** Log ends counted and measured on a truck from a photo (a measurement kind). */
export interface TruckDiameterMeasurementsTable {
  id: Generated<number>;
  organization_id: number;
  storage_id: number;
  shipment_id: number | null;
  device_id: number | null;
  user_id: number | null;
  client_id: string | null;
  shipment_number: string | null;
  measurement_type_id: Generated<number>;
  wood_type_id: number | null;
  /** metres */
  log_length: number;
  volume_formula: Generated<string>;
  trailer_license_plate: string | null;
  load_bed_name: string | null;
  detector: string | null;
  reference_lines: ColumnType<ReferenceLineJson[] | null, string | null | undefined, string | null>;
  logs_count: Generated<number>;
  /** m³ */
  volume: Generated<number>;
  taken_at: Date;
  measured_at: Date | null;
  latitude: number | null;
  longitude: number | null;
  photo_file_name: string | null;
  photo_key: string | null;
  photo_sha256: string | null;
  photo_optimized_key: string | null;
  photo_popup_key: string | null;
  photo_thumbnail_key: string | null;
  photo_width: number | null;
  photo_height: number | null;
  photo_status: Generated<number>;
  photo_attempts: Generated<number>;
  photo_error: string | null;
  photo_enqueued_at: Date | null;
  comment: string | null;
  custom_fields: ColumnType<Record<string, unknown>, string | undefined, string>;
  inventory_id: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Date | null;
}

/** One log end of a truck-diameter measurement: a circle in image pixels, its diameter (cm) and volume (m³). */
export interface TruckDiameterLogsTable {
  id: Generated<number>;
  organization_id: number;
  truck_diameter_measurement_id: number;
  x: number;
  y: number;
  r: number;
  d: Generated<number>;
  v: Generated<number>;
  is_deleted: ColumnType<boolean, boolean | undefined, boolean>;
  modified_at: Date | null;
}

// Duplicate analysis (issue 19, docs/decisions/016-duplicate-analysis.md)
export type AnalyzeReportStatus = "created" | "finished" | "failed";

export interface AnalyzeReportsTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number | null;
  name: string;
  type_key: Generated<string>;
  status: ColumnType<AnalyzeReportStatus, AnalyzeReportStatus | undefined, AnalyzeReportStatus>;
  status_detail: string | null;
  /** yyyy-MM-dd, UTC days, both included. */
  period_from: string;
  period_to: string;
  /** Empty: all storages. */
  storage_ids: ColumnType<number[], string, string>;
  /** Empty: all measurement types. */
  measurement_types: ColumnType<number[], string, string>;
  attempts: Generated<number>;
  enqueued_at: Date | null;
  started_at: Date | null;
  completed_at: Date | null;
  measurements_compared: number | null;
  created_at: CreatedAt;
}

export interface AnalyzeReportCasesTable {
  id: Generated<number>;
  organization_id: number;
  analyze_report_id: number;
  reasons: ColumnType<string[], string, string>;
  measurement_ids: ColumnType<number[], string, string>;
  score: Generated<number>;
  resolved_at: Date | null;
  resolved_by: number | null;
}

export type MixedStackCategory = "close_up" | "far_away";

export interface MixedStackReportsTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  /** Delivered weight in metric tons (2 decimals), null until given. */
  total_delivery_tons: number | null;
  created_by: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface MixedStackReportMeasurementsTable {
  id: Generated<number>;
  organization_id: number;
  mixed_stack_report_id: number;
  measurement_id: number;
  category: MixedStackCategory;
  created_at: CreatedAt;
}

/** One change of a measurement of any kind, append-only (docs/decisions/024-trust.md). */
/** Configurable export layouts (migration 0032): a target's chosen columns per organisation. */
export interface ExportLayoutTable {
  id: Generated<number>;
  organization_id: number;
  target: string;
  columns: ColumnType<unknown, string, string>;
  updated_by: number | null;
  updated_at: ColumnType<Date, never, never>;
}

export interface MeasurementHistoryTable {
  id: Generated<number>;
  organization_id: number;
  kind: string;
  measurement_id: number;
  action: string;
  user_id: number | null;
  device_id: number | null;
  at: CreatedAt;
  volume_before: number | null;
  volume_after: number | null;
  changes: ColumnType<unknown, string, never>;
  /** The hash chain (migration 0029): the previous row's hash of the same measurement, and this row's. */
  prev_hash: ColumnType<string | null, string | null, never>;
  hash: ColumnType<string | null, string | null, never>;
}

/** A contract bills of lading are sold under (docs/decisions/022-containers.md). */
export interface ContainerContractsTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  created_at: CreatedAt;
}

/** A bill of lading: containers shipped together (docs/decisions/022-containers.md). */
export interface BillOfLadingsTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  contract_id: number | null;
  /** The assortment the bill is sold as. */
  wood_characteristic_id: number | null;
  archived: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** A shipping container; seal number, weight, width and height are free text. */
export interface ContainersTable {
  id: Generated<number>;
  organization_id: number;
  bill_of_lading_id: number | null;
  name: string;
  seal_number: string | null;
  weight: string | null;
  width: string | null;
  height: string | null;
  /** kg */
  tare_weight: number | null;
  net_weight: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** A container measurement: the log ends in a container, JAS volumes (the fourth measurement kind). */
export interface ContainerMeasurementsTable {
  id: Generated<number>;
  organization_id: number;
  storage_id: number;
  container_id: number | null;
  device_id: number | null;
  client_id: string | null;
  measurement_type_id: Generated<number>;
  shipment_number: string | null;
  taken_at: Date;
  measured_at: Date | null;
  latitude: number | null;
  longitude: number | null;
  wood_type_id: number | null;
  wood_quality_id: number | null;
  assortment_id: number | null;
  /** metres */
  log_length: number | null;
  volume_formula: Generated<string>;
  coefficient: number | null;
  logs_count: Generated<number>;
  /** m³ */
  volume: Generated<number>;
  locked_at: Date | null;
  photo_file_name: string | null;
  photo_key: string | null;
  photo_sha256: string | null;
  photo_optimized_key: string | null;
  photo_popup_key: string | null;
  photo_thumbnail_key: string | null;
  photo_width: number | null;
  photo_height: number | null;
  photo_status: Generated<number>;
  photo_attempts: Generated<number>;
  photo_error: string | null;
  photo_enqueued_at: Date | null;
  comment: string | null;
  custom_fields: ColumnType<Record<string, unknown>, string | undefined, string>;
  inventory_id: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  deleted_at: Date | null;
}

/** A log of a container measurement: circle in pixels, d and jas_d in cm, v in m³. */
export interface ContainerMeasurementLogsTable {
  id: Generated<number>;
  organization_id: number;
  container_measurement_id: number;
  x: number;
  y: number;
  r: number;
  d: number;
  jas_d: Generated<number>;
  v: number;
  is_deleted: ColumnType<boolean, boolean | undefined, boolean>;
  modified_at: Date | null;
}

/** A reference line of a container measurement; size in metres. */
export interface ContainerMeasurementReferencesTable {
  id: Generated<number>;
  organization_id: number;
  container_measurement_id: number;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  size: number;
}

/** What a report's generation job stored (docs/decisions/021-reports.md); app/domain/report.ts. */
export interface ReportDetailsJson {
  logs: {
    diameter: number;
    log_count: number;
    volume: number;
    characteristic_id: number | null;
    cull_id: number | null;
  }[];
  characteristics: {
    id: number;
    name: string;
    price: number | null;
    price_per_log: number | null;
    price_unit: string;
    log_count: number;
    volume: number;
    /** The solid volume priced, in price_unit (docs/decisions/026; absent in older tallies). */
    priced_quantity?: number;
    value: number;
  }[];
  culls: { id: number; name: string; log_count: number; volume: number }[];
  totals: { log_count: number; volume: number; cull_log_count: number; cull_volume: number; value: number };
  measurements_count: number;
}

export interface ReportsTable {
  id: Generated<number>;
  organization_id: number;
  recipient_organization_id: number | null;
  name: string;
  volume_formula: string;
  volume_unit: VolumeUnit;
  /** yyyy-MM-dd. */
  reported_at: string;
  confirmed: ColumnType<boolean, boolean | undefined, boolean>;
  confirmed_at: Date | null;
  confirmed_by: number | null;
  seen_at: Date | null;
  generating_in_progress: ColumnType<boolean, boolean | undefined, boolean>;
  generation_enqueued_at: Date | null;
  generation_attempts: Generated<number>;
  generated_at: Date | null;
  generation_error: string | null;
  last_added_count: Generated<number>;
  last_not_added_count: Generated<number>;
  details: ColumnType<ReportDetailsJson | null, string | null | undefined, string | null>;
  created_by: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface ReportMeasurementsTable {
  id: Generated<number>;
  organization_id: number;
  report_id: number;
  measurement_id: number;
  created_at: CreatedAt;
}

export interface Database {
  measurement_history: MeasurementHistoryTable;
  export_layouts: ExportLayoutTable;
  container_contracts: ContainerContractsTable;
  bill_of_ladings: BillOfLadingsTable;
  containers: ContainersTable;
  container_measurements: ContainerMeasurementsTable;
  container_measurement_logs: ContainerMeasurementLogsTable;
  container_measurement_references: ContainerMeasurementReferencesTable;
  reports: ReportsTable;
  report_measurements: ReportMeasurementsTable;
  inventories: InventoriesTable;
  analyze_reports: AnalyzeReportsTable;
  analyze_report_cases: AnalyzeReportCasesTable;
  mixed_stack_reports: MixedStackReportsTable;
  mixed_stack_report_measurements: MixedStackReportMeasurementsTable;
  public_links: PublicLinksTable;
  public_rate_limits: PublicRateLimitsTable;
  diameter_profiles: DiameterProfilesTable;
  diameter_profile_assortments: DiameterProfileAssortmentsTable;
  lumber_products: LumberProductsTable;
  lumber_measurements: LumberMeasurementsTable;
  planks: PlanksTable;
  trucks: TrucksTable;
  truck_measurements: TruckMeasurementsTable;
  truck_loads: TruckLoadsTable;
  truck_routes: TruckRoutesTable;
  truck_checkpoints: TruckCheckpointsTable;
  shipments: ShipmentsTable;
  truck_diameter_measurements: TruckDiameterMeasurementsTable;
  truck_diameter_logs: TruckDiameterLogsTable;
  user_tokens: UserTokensTable;
  password_history: PasswordHistoryTable;
  organizations: OrganizationsTable;
  users: UsersTable;
  roles: RolesTable;
  sessions: SessionsTable;
  storage_groups: StorageGroupsTable;
  storages: StoragesTable;
  wood_types: LookupTable;
  wood_qualities: LookupTable;
  volume_formulas: VolumeFormulasTable;
  culls: CullsTable;
  assortments: AssortmentsTable;
  measurements: MeasurementsTable;
  logs: LogsTable;
  measurement_references: MeasurementReferencesTable;
  mail_outbox: MailOutboxTable;
  devices: DevicesTable;
  device_storages: DeviceStoragesTable;
  device_invitations: DeviceInvitationsTable;
  custom_fields: CustomFieldsTable;
  custom_field_values: CustomFieldValuesTable;
  exports: ExportsTable;
  billing_accounts: BillingAccountsTable;
  subscription_items: SubscriptionItemsTable;
  invoices: InvoicesTable;
  picture_credit_events: PictureCreditEventsTable;
  billing_events: BillingEventsTable;
  local_checkouts: LocalCheckoutsTable;
}

export type Organization = Selectable<OrganizationsTable>;
export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Role = Selectable<RolesTable>;
export type Session = Selectable<SessionsTable>;
export type Storage = Selectable<StoragesTable>;
export type Measurement = Selectable<MeasurementsTable>;
export type NewMeasurement = Insertable<MeasurementsTable>;
export type Log = Selectable<LogsTable>;
export type NewLog = Insertable<LogsTable>;
export type MeasurementReference = Selectable<MeasurementReferencesTable>;
export type Device = Selectable<DevicesTable>;
export type CustomField = Selectable<CustomFieldsTable>;
export type Export = Selectable<ExportsTable>;
export type LumberMeasurement = Selectable<LumberMeasurementsTable>;
export type Plank = Selectable<PlanksTable>;
export type TruckMeasurement = Selectable<TruckMeasurementsTable>;
export type ContainerMeasurement = Selectable<ContainerMeasurementsTable>;
export type Container = Selectable<ContainersTable>;
export type BillOfLading = Selectable<BillOfLadingsTable>;
export type TruckLoad = Selectable<TruckLoadsTable>;
export type TruckRoute = Selectable<TruckRoutesTable>;
export type TruckCheckpoint = Selectable<TruckCheckpointsTable>;
export type Shipment = Selectable<ShipmentsTable>;
export type TruckDiameterMeasurement = Selectable<TruckDiameterMeasurementsTable>;
export type TruckDiameterLog = Selectable<TruckDiameterLogsTable>;
export type PublicLink = Selectable<PublicLinksTable>;
export type Inventory = Selectable<InventoriesTable>;
export type AnalyzeReport = Selectable<AnalyzeReportsTable>;
export type AnalyzeReportCase = Selectable<AnalyzeReportCasesTable>;
export type Report = Selectable<ReportsTable>;
