import * as initial from "./2026_11_21_0001_initial";
import * as devicesCustomFields from "./2026_11_21_0002_devices_custom_fields";
import * as accounts from "./2026_11_21_0004_accounts";
import * as billing from "./2026_11_21_0005_billing";
import * as timber from "./2026_11_21_0006_timber";
import * as exports_ from "./2026_11_21_0008_exports";
import * as lumberMeasurements from "./2026_11_21_0009_lumber_measurements";
import * as measurementKindPhotos from "./2026_11_21_0010_measurement_kind_photos";
import * as securityHardening from "./2026_11_23_0011_security_hardening";
import * as publicLinks from "./2026_11_27_0012_public_links";
import * as inventories from "./2026_11_27_0013_inventories";
import * as analyzeReports from "./2026_11_27_0015_analyze_reports";
import * as trucks from "./2026_11_27_0016_trucks";
import * as lumberDashboard from "./2026_11_27_0017_lumber_dashboard";
import * as mixedStackReports from "./2026_11_27_0019_mixed_stack_reports";
import * as reports from "./2026_11_27_0020_reports";
import * as containers from "./2026_11_27_0021_containers";
import * as shipments from "./2026_11_27_0022_shipments";
import * as trust from "./2026_11_27_0023_trust";
import * as historyChain from "./2026_11_27_0029_history_chain";
import * as exportLayouts from "./2026_11_27_0032_export_layouts";
import type { Migration } from "kysely";

// Listed by hand so the migrations bundle into the worker and run under tsx and vitest alike.
export const migrations: Record<string, Migration> = {
  "2026_11_21_0001_initial": initial,
  "2026_11_21_0002_devices_custom_fields": devicesCustomFields,
  "2026_11_21_0008_exports": exports_,
  "2026_11_21_0005_billing": billing,
  "2026_11_21_0006_timber": timber,
  "2026_11_21_0004_accounts": accounts,
  "2026_11_21_0009_lumber_measurements": lumberMeasurements,
  "2026_11_21_0010_measurement_kind_photos": measurementKindPhotos,
  "2026_11_23_0011_security_hardening": securityHardening,
  "2026_11_27_0012_public_links": publicLinks,
  "2026_11_27_0017_lumber_dashboard": lumberDashboard,
  "2026_11_27_0013_inventories": inventories,
  "2026_11_27_0016_trucks": trucks,
  "2026_11_27_0015_analyze_reports": analyzeReports,
  "2026_11_27_0019_mixed_stack_reports": mixedStackReports,
  "2026_11_27_0023_trust": trust,
  "2026_11_27_0021_containers": containers,
  "2026_11_27_0022_shipments": shipments,
  "2026_11_27_0020_reports": reports,
  "2026_11_27_0029_history_chain": historyChain,
  "2026_11_27_0032_export_layouts": exportLayouts,
};
