import type { InvoiceView } from "~/models/billing.server";
import type { AddItemInput, CheckoutSubscriptionInput, UpdateItemInput } from "~/utils/schemas/billing";

/** Who is buying: the caller's organisation (from the AuthContext). */
export interface BillingCustomer {
  organizationId: number;
  organization: { id: number; name: string; invoice_email: string | null };
  user: { email: string };
}

/**
 * The billing port. Stripe when STRIPE_SECRET_KEY is set, otherwise the local provider that keeps
 * the same plans, items and invoices in MySQL. Purchase rules are checked before (rules.server.ts).
 */
export interface BillingProvider {
  readonly name: "local" | "stripe";
  checkoutSubscription(customer: BillingCustomer, input: CheckoutSubscriptionInput): Promise<{ redirect_url: string }>;
  checkoutPicturePackage(customer: BillingCustomer, packageId: string): Promise<{ redirect_url: string }>;
  /** Adds an item to the live subscription; answers the pending invoice when one was raised. */
  addItem(customer: BillingCustomer, input: AddItemInput): Promise<{ invoice: InvoiceView | null }>;
  updateItem(customer: BillingCustomer, input: UpdateItemInput): Promise<{ invoice: InvoiceView | null }>;
  /** Marks the item cancelled: it keeps its features until the paid period ends. */
  cancelItem(customer: BillingCustomer, packageId: string): Promise<void>;
  /** Amount due now (EUR) if the item had this quantity (an item not yet bought: if it were added). */
  preview(customer: BillingCustomer, input: UpdateItemInput): Promise<{ amount_due: number }>;
  customerPortal(customer: BillingCustomer): Promise<{ portal_url: string }>;
}
