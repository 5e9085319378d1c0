import { z } from "zod";
import { PACKAGE_IDS, PICTURE_PLAN_IDS, TRIAL_MAX_SEATS, TRIAL_PLAN_IDS } from "~/domain/billing";

// One schema per billing payload (API routes, the /billing forms and the tests).

const packageId = z.enum(PACKAGE_IDS as [string, ...string[]], { error: "billing:errors.unknownPackage" });
const quantity = z.coerce
  .number({ error: "billing:errors.quantity" })
  .int("billing:errors.quantity")
  .min(1, "billing:errors.quantityMin")
  .max(1000, "billing:errors.quantity");

const period = z.coerce
  .number({ error: "billing:errors.period" })
  .refine((p) => p === 1 || p === 12, "billing:errors.period");

/** POST /checkout/subscription: period 12 (yearly) or 1 (monthly), trial flag, line items. */
export const CheckoutSubscriptionSchema = z.object({
  period,
  trial: z
    .union([z.boolean(), z.enum(["true", "false", "on", "1", "0"])])
    .optional()
    .transform((v) => v === true || v === "true" || v === "on" || v === "1"),
  line_items: z
    .array(z.object({ package_id: packageId, quantity: quantity.default(1) }))
    .min(1, "billing:errors.noItems")
    .max(20),
});
export type CheckoutSubscriptionInput = z.infer<typeof CheckoutSubscriptionSchema>;

/** POST /subscription/items: package_id, optional quantity (1). */
export const AddItemSchema = z.object({ package_id: packageId, quantity: quantity.optional().default(1) });
export type AddItemInput = z.infer<typeof AddItemSchema>;

/** PATCH /subscription/items and POST /subscription/items/preview: package_id, quantity. */
export const UpdateItemSchema = z.object({ package_id: packageId, quantity });
export type UpdateItemInput = z.infer<typeof UpdateItemSchema>;

/** POST /checkout/picture_package: package_id PLAN_10..PLAN_200. */
export const PicturePackageSchema = z.object({
  package_id: z.enum(PICTURE_PLAN_IDS as [string, ...string[]], { error: "billing:errors.unknownPicturePlan" }),
});

// The /billing screen's forms: flat fields (one package per form), made into the payloads above.

/** A plan card's "buy" form (no subscription yet): one line item, then POST /checkout/subscription. */
export const CheckoutFormSchema = AddItemSchema.extend({ period });
export function checkoutFormPayload(value: z.infer<typeof CheckoutFormSchema>) {
  return { period: value.period, line_items: [{ package_id: value.package_id, quantity: value.quantity }] };
}

const trialSeats = z.coerce
  .number({ error: "billing:errors.quantity" })
  .int("billing:errors.quantity")
  .min(0, "billing:errors.quantity")
  .max(TRIAL_MAX_SEATS, "billing:errors.trialSeats")
  .default(0);

/** The trial dialog: devices per trial plan (`seats_<plan>`), at least one and at most the trial's total. */
const seatsShape = Object.fromEntries(TRIAL_PLAN_IDS.map((id) => [`seats_${id}`, trialSeats])) as Record<
  `seats_${(typeof TRIAL_PLAN_IDS)[number]}`,
  typeof trialSeats
>;
export const TrialFormSchema = z.object({ period, ...seatsShape }).superRefine((value, ctx) => {
  const total = TRIAL_PLAN_IDS.reduce((sum, id) => sum + value[`seats_${id}`], 0);
  if (total < 1) ctx.addIssue({ code: "custom", path: [], message: "billing:errors.noItems" });
  if (total > TRIAL_MAX_SEATS) ctx.addIssue({ code: "custom", path: [], message: "billing:errors.trialSeats" });
});
export function trialFormPayload(value: z.infer<typeof TrialFormSchema>) {
  const line_items = TRIAL_PLAN_IDS.map((id) => ({ package_id: id, quantity: value[`seats_${id}`] }));
  return { period: value.period, trial: true, line_items: line_items.filter((li) => li.quantity > 0) };
}
