import type { IconName } from "~/components/ui/icon";
import { MEASUREMENT_MODES, type MeasurementModeKey } from "~/utils/measurement-modes";

// The sidebar of "Application shell and sidebar" as data: what each user sees is decided here.

export type NavEntry = {
  key: string;
  to: string;
  icon: IconName;
  /** Shown with a lock icon when the organisation's plan lacks this feature. */
  feature?: string;
  badge?: number;
};

export { MEASUREMENT_MODES, type MeasurementModeKey };

export function measurementEntries(opts: { cmpcEnabled: boolean }): NavEntry[] {
  const entries: NavEntry[] = [
    { key: "timber", to: "/measurements/timber", icon: "timber" },
    { key: "container", to: "/measurements/container", icon: "container" },
    { key: "truck", to: "/measurements/truck", icon: "truck" },
    { key: "lumber", to: "/measurements/lumber", icon: "lumber" },
  ];
  if (opts.cmpcEnabled) entries.push({ key: "cmpc", to: "/measurements/cmpc", icon: "cmpc" });
  return entries;
}

export function adminEntries(opts: { unseenReports: number }): NavEntry[] {
  return [
    { key: "devices", to: "/devices", icon: "devices" },
    { key: "timber", to: "/timber", icon: "master" },
    { key: "users", to: "/users", icon: "users" },
    { key: "customFields", to: "/custom_fields", icon: "fields", feature: "custom_fields" },
    { key: "reports", to: "/reports", icon: "reports", feature: "reports", badge: opts.unseenReports },
    { key: "inventories", to: "/inventories", icon: "inventories", feature: "inventories" },
    { key: "analysis", to: "/analyze_reports", icon: "analysis", feature: "duplicate_storage_measurements" },
    { key: "storages", to: "/storages", icon: "storages" },
    { key: "settings", to: "/settings", icon: "settings" },
    { key: "billing", to: "/billing", icon: "billing" },
  ];
}

export function isLocked(entry: NavEntry, features: readonly string[]) {
  return entry.feature !== undefined && !features.includes(entry.feature);
}
