import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SettingsTabs } from "~/components/accounts/settings-tabs";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { Field } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select-field";
import { listStorages } from "~/models/lookup.server";
import { serializeOrganization, updateOrganization } from "~/models/organization.server";
import { requireAppAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { unknownIntent } from "~/utils/errors";
import { OrganizationFormSchema } from "~/utils/schemas/admin";
import { redirectWithToast } from "~/utils/toast.server";

export const handle = { i18n: ["accounts"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const storages = await listStorages(db(), ctx);
  return json({
    organization: serializeOrganization(ctx.organization),
    storages: storages.map((s) => ({ id: s.id, name: s.name })),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const form = await request.formData();
  if (form.get("intent") !== "save") unknownIntent();
  const submission = parseWithZod(form, { schema: OrganizationFormSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 422 });
  const result = await updateOrganization(db(), ctx, ctx.organizationId, submission.value);
  if (result !== "ok")
    return json(submission.reply({ fieldErrors: { default_storage_id: ["accounts:organization.storageInvalid"] } }), {
      status: 422,
    });
  return redirectWithToast("/settings/organization", { type: "success", key: "accounts:settings.saved" });
}

type TextField = "name" | "address" | "city" | "postal_code" | "invoice_email" | "contact_person" | "phone";

export default function OrganizationSettingsPage() {
  const { t } = useTranslation("accounts");
  const { organization, storages } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "organization",
    lastResult,
    defaultValue: { ...organization, default_storage_id: organization.default_storage_id?.toString() ?? null },
    constraint: getZodConstraint(OrganizationFormSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: OrganizationFormSchema }),
  });
  const err = (k: keyof typeof fields) => fields[k].errors?.map((e) => t(e));
  const text = (k: TextField, type: "text" | "email" | "tel" = "text") => (
    <Field label={t(`organization.${k}`)} inputProps={getInputProps(fields[k], { type })} errors={err(k)} />
  );
  return (
    <div className="page page-narrow">
      <h1 className="page-title">{t("settings.title")}</h1>
      <SettingsTabs isAdmin />
      <Form method="POST" className="card" data-testid="organization-form" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="save" />
        {text("name")}
        <div className="grid-2">
          <Field
            label={t("organization.registration_code")}
            inputProps={{
              id: "registration_code",
              value: organization.registration_code ?? "",
              readOnly: true,
              disabled: true,
            }}
          />
          <Field
            label={t("organization.country")}
            inputProps={{ id: "country", value: organization.country ?? "", readOnly: true, disabled: true }}
          />
          {text("address")}
          {text("city")}
          {text("postal_code")}
          <Field
            label={t("organization.vat_code")}
            inputProps={{ ...getInputProps(fields.vat_code, { type: "text" }), placeholder: "EE123456789" }}
            errors={err("vat_code")}
            hint={t("organization.vatHint")}
          />
          {text("invoice_email", "email")}
          {text("contact_person")}
          {text("phone", "tel")}
          <SelectField
            label={t("organization.default_storage_id")}
            selectProps={getSelectProps(fields.default_storage_id)}
            options={storages.map((s) => [s.id, s.name])}
            errors={err("default_storage_id")}
          />
        </div>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary">
            {t("common.save")}
          </button>
        </div>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
