import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CustomFieldTabs, UpsellNotice } from "~/components/accounts/custom-field-tabs";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { Field } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select-field";
import { createCustomField, DuplicateKeyError } from "~/models/custom-field.server";
import { issuesToErrors, requireAdminScreen } from "~/utils/admin-screen.server";
import { db } from "~/utils/db.server";
import { CUSTOM_FIELD_SOURCES, CUSTOM_FIELD_TYPES, CustomFieldCreateSchema } from "~/utils/schemas/custom-fields";
import { redirectWithToast } from "~/utils/toast.server";

export const handle = { i18n: ["accounts"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAdminScreen(request);
  return json({ enabled: ctx.features.includes("custom_fields") });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireAdminScreen(request);
  if (!ctx.features.includes("custom_fields")) throw redirect("/custom_fields");
  const values = Object.fromEntries(await request.formData()) as Record<string, string>;
  const parsed = CustomFieldCreateSchema.safeParse({ custom_field: values });
  if (!parsed.success) return json({ values, errors: issuesToErrors(parsed.error.issues, 1) }, { status: 422 });
  try {
    const id = await createCustomField(db(), ctx, parsed.data.custom_field);
    return redirectWithToast(`/custom_fields/${id}`, { type: "success", key: "accounts:customFields.created" });
  } catch (error) {
    if (!(error instanceof DuplicateKeyError)) throw error;
    return json({ values, errors: { key: ["accounts:customFields.keyTaken"] } as Record<string, string[]> }, { status: 422 });
  }
}

export default function NewCustomFieldPage() {
  const { t } = useTranslation("accounts");
  const { enabled } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const v = data?.values ?? {};
  const err = (k: string) => data?.errors?.[k]?.map((e) => t(e));
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
      <Form method="POST" className="card">
        <Field label={t("customFields.name")} inputProps={{ name: "name", id: "name", required: true, defaultValue: v.name ?? "" }} errors={err("name")} />
        <Field label={t("customFields.key")} inputProps={{ name: "key", id: "key", required: true, pattern: "[a-z0-9_]+", defaultValue: v.key ?? "" }} errors={err("key")} hint={t("customFields.keyRule")} />
        <div className="grid-2">
          <SelectField name="source_key" label={t("customFields.source")} value={v.source_key ?? "measurement"} options={CUSTOM_FIELD_SOURCES.map((s) => [s, t(`customFields.sources.${s}`)])} errors={err("source_key")} />
          <SelectField name="data_type" label={t("customFields.type")} value={v.data_type ?? ""} options={CUSTOM_FIELD_TYPES.map((s) => [s, t(`customFields.types.${s}`)])} errors={err("data_type")} />
        </div>
        <label className="checkbox"><input type="checkbox" name="searchable" defaultChecked={v.searchable === "on"} /> {t("customFields.searchable")}</label>
        <label className="checkbox"><input type="checkbox" name="required" defaultChecked={v.required === "on"} /> {t("customFields.required")}</label>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary">{t("customFields.create")}</button>
        </div>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
