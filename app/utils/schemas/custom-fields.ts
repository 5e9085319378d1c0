import { z } from "zod";

export const CUSTOM_FIELD_SOURCES = [
  "measurement",
  "truck_measurement",
  "container_measurement",
  "lumber_measurement",
  "storage",
] as const;
export const CUSTOM_FIELD_TYPES = ["string", "text", "integer", "decimal", "boolean", "date", "datetime"] as const;
/** The key rule: lower-case letters, digits and underscore only. */
export const CUSTOM_FIELD_KEY = /^[a-z0-9_]+$/;

const rank = z.coerce
  .number({ error: "accounts:customFields.rankInvalid" })
  .int("accounts:customFields.rankInvalid")
  .min(0, "accounts:customFields.rankInvalid")
  .max(100000, "accounts:customFields.rankInvalid");

const flag = z.preprocess((v) => (v === "on" || v === "true" ? true : v === "false" ? false : v), z.boolean());

/** The new-custom-field form's fields; POST /custom_fields wraps them in `custom_field`. */
export const CustomFieldFieldsSchema = z.object({
  name: z
    .string({ error: "accounts:customFields.nameRequired" })
    .trim()
    .min(1, "accounts:customFields.nameRequired")
    .max(255),
  key: z
    .string({ error: "accounts:customFields.keyRequired" })
    .trim()
    .min(1, "accounts:customFields.keyRequired")
    .max(64)
    .regex(CUSTOM_FIELD_KEY, "accounts:customFields.keyRule"),
  source_key: z.enum(CUSTOM_FIELD_SOURCES, { error: "accounts:customFields.sourceRequired" }),
  data_type: z.enum(CUSTOM_FIELD_TYPES, { error: "accounts:customFields.typeRequired" }),
  searchable: flag.default(false),
  required: flag.default(false),
});

export const CustomFieldCreateSchema = z.object({ custom_field: CustomFieldFieldsSchema });

export const CustomFieldPatchSchema = z.object({
  custom_field: z
    .object({
      name: z.string().trim().min(1, "accounts:customFields.nameRequired").max(255).optional(),
      archived: flag.optional(),
      searchable: flag.optional(),
      required: flag.optional(),
    })
    .strict(),
});

/** A value of a list field; the custom field screen's "add a value" form posts these fields bare. */
export const CustomFieldValueFieldsSchema = z.object({
  value: z
    .string({ error: "accounts:customFields.valueRequired" })
    .trim()
    .min(1, "accounts:customFields.valueRequired")
    .max(255),
  rank: rank.optional(),
});
export const CustomFieldValueSchema = z.object({ custom_field_value: CustomFieldValueFieldsSchema });

/** The custom field screen's form: PATCH /custom_fields/{id}'s fields, the name required, unchecked boxes false. */
export const CustomFieldEditFormSchema = z.object({
  name: z
    .string({ error: "accounts:customFields.nameRequired" })
    .trim()
    .min(1, "accounts:customFields.nameRequired")
    .max(255),
  searchable: z.boolean().default(false),
  required: z.boolean().default(false),
  archived: z.boolean().default(false),
});

export const CustomFieldValuePatchSchema = z.object({
  custom_field_value: z
    .object({
      value: z.string().trim().min(1, "accounts:customFields.valueRequired").max(255).optional(),
      rank: rank.optional(),
      archived: flag.optional(),
    })
    .strict(),
});

/** A value's row on the custom field screen (rank and archived): PATCH /custom_field_values/{id}'s fields. */
export const CustomFieldValueRowFormSchema = z.object({
  value_id: z.coerce.number().int().positive(),
  rank,
  archived: z.boolean().default(false),
});
