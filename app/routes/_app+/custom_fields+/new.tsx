import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CustomFieldTabs, UpsellNotice } from "~/components/accounts/custom-field-tabs";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { Field } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select-field";
import { createCustomField, DuplicateKeyError } from "~/models/custom-field.server";
import { requireAppAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { CUSTOM_FIELD_SOURCES, CUSTOM_FIELD_TYPES, CustomFieldFieldsSchema } from "~/utils/schemas/custom-fields";
import { redirectWithToast } from "~/utils/toast.server";

export const handle = { i18n: ["accounts"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  return json({ enabled: ctx.features.includes("custom_fields") });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  if (!ctx.features.includes("custom_fields")) throw redirect("/custom_fields");
  const submission = parseWithZod(await request.formData(), { schema: CustomFieldFieldsSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 422 });
  try {
    const id = await createCustomField(db(), ctx, submission.value);
    return redirectWithToast(`/custom_fields/${id}`, { type: "success", key: "accounts:customFields.created" });
  } catch (error) {
    if (!(error instanceof DuplicateKeyError)) throw error;
    return json(submission.reply({ fieldErrors: { key: ["accounts:customFields.keyTaken"] } }), { status: 422 });
  }
}

export default function NewCustomFieldPage() {
  const { t } = useTranslation("accounts");
  const { enabled } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "custom-field",
    lastResult,
    constraint: getZodConstraint(CustomFieldFieldsSchema),
    defaultValue: { source_key: "measurement" },
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CustomFieldFieldsSchema }),
  });
  const err = (list: string[] | undefined) => list?.map((e) => t(e));
  if (!enabled) {
    return (
      <div className="page">
        <h1 className="page-title">{t("customFields.title")}</h1>
        <UpsellNotice feature="custom_fields" />
      </div>
    );
  }
  return (
    <div className="page page-narrow">
      <h1 className="page-title">{t("customFields.title")}</h1>
      <CustomFieldTabs />
      <Form method="POST" className="card" {...getFormProps(form)}>
        <Field
          label={t("customFields.name")}
          inputProps={getInputProps(fields.name, { type: "text" })}
          errors={err(fields.name.errors)}
        />
        <Field
          label={t("customFields.key")}
          inputProps={getInputProps(fields.key, { type: "text" })}
          errors={err(fields.key.errors)}
          hint={t("customFields.keyRule")}
        />
        <div className="grid-2">
          <SelectField
            label={t("customFields.source")}
            selectProps={getSelectProps(fields.source_key)}
            options={CUSTOM_FIELD_SOURCES.map((s) => [s, t(`customFields.sources.${s}`)])}
            errors={err(fields.source_key.errors)}
          />
          <SelectField
            label={t("customFields.type")}
            selectProps={getSelectProps(fields.data_type)}
            options={CUSTOM_FIELD_TYPES.map((s) => [s, t(`customFields.types.${s}`)])}
            errors={err(fields.data_type.errors)}
          />
        </div>
        <label className="checkbox">
          <input {...getInputProps(fields.searchable, { type: "checkbox" })} /> {t("customFields.searchable")}
        </label>
        <label className="checkbox">
          <input {...getInputProps(fields.required, { type: "checkbox" })} /> {t("customFields.required")}
        </label>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary">
            {t("customFields.create")}
          </button>
        </div>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
