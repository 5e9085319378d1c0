import { sql } from "kysely";
import { unitPrice } from "~/domain/billing";
import {
  addPictureCredits,
  createInvoice,
  ensureBillingAccount,
  recomputeFeatures,
  updateBillingAccount,
  upsertItem,
} from "~/models/billing.server";
import type { DB } from "~/utils/db.server";

// The demo organisation's subscription (local provider): yearly Pro for 3 devices with the
// diameter profiles, custom fields and reports add-ons, paid until eleven months from now, a
// paid invoice from a month ago and some picture measurements left over. Its features are then
// derived from these items like any organisation's: timber_management, minmax_assortments,
// inventories, precise_log_by_log_excel, diameter_profiles, custom_fields, reports,
// mixed_stack_reports.
export const DEMO_SUBSCRIPTION = [
  { package_id: "pro_subscription", quantity: 3 },
  { package_id: "diameter_profiles_bundle", quantity: 1 },
  { package_id: "custom_fields_bundle", quantity: 1 },
  { package_id: "reports_bundle", quantity: 1 },
] as const;

export async function seedBilling(db: DB, organizationId: number, now = new Date()) {
  await ensureBillingAccount(db, { organizationId });
  const paidUntil = new Date(now);
  paidUntil.setUTCMonth(paidUntil.getUTCMonth() + 11);
  await updateBillingAccount(
    db,
    { organizationId },
    {
      provider: "local",
      status: "active",
      interval: "year",
      paid_until: paidUntil,
      trial_used: true,
    },
  );
  for (const item of DEMO_SUBSCRIPTION) await upsertItem(db, { organizationId }, item);
  const invoice = await createInvoice(
    db,
    { organizationId },
    {
      status: "paid",
      lines: DEMO_SUBSCRIPTION.map((i) => ({
        description: i.package_id,
        quantity: i.quantity,
        amount_cents: Math.round((unitPrice(i.package_id, "year") ?? 0) * 100 * i.quantity),
      })),
    },
  );
  const issued = new Date(now);
  issued.setUTCMonth(issued.getUTCMonth() - 1);
  // created_at is never updated by the app; the demo backdates its first invoice.
  await sql`UPDATE invoices SET created_at = ${issued} WHERE id = ${invoice.id}`.execute(db);
  await addPictureCredits(db, { organizationId }, 50, "PLAN_50");
  return recomputeFeatures(db, { organizationId }, now);
}
