import type { Migration } from "kysely";
import * as initial from "./2026_11_21_0001_initial";
import * as devicesCustomFields from "./2026_11_21_0002_devices_custom_fields";
import * as accounts from "./2026_11_21_0004_accounts";

// Listed by hand so the migrations bundle into the worker and run under tsx and vitest alike.
export const migrations: Record<string, Migration> = {
  "2026_11_21_0001_initial": initial,
  "2026_11_21_0002_devices_custom_fields": devicesCustomFields,
  "2026_11_21_0004_accounts": accounts,
};
