import { z } from "zod";
import { PACKAGE_IDS, PICTURE_PLAN_IDS } from "~/domain/billing";

// One schema per billing payload (API routes, the /billing forms and the tests).

const packageId = z.enum(PACKAGE_IDS as [string, ...string[]], { error: "billing:errors.unknownPackage" });
const quantity = z.coerce
  .number({ error: "billing:errors.quantity" })
  .int("billing:errors.quantity")
  .min(1, "billing:errors.quantityMin")
  .max(1000, "billing:errors.quantity");

/** POST /checkout/subscription: period 12 (yearly) or 1 (monthly), trial flag, line items. */
export const CheckoutSubscriptionSchema = z.object({
  period: z.coerce.number().refine((p) => p === 1 || p === 12, "billing:errors.period"),
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
