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
import { issuesToErrors, unknownIntent } from "~/utils/errors";
import { OrganizationFieldsSchema } from "~/utils/schemas/admin";
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

const FIELDS = [
  "name",
  "address",
  "city",
  "postal_code",
  "vat_code",
  "invoice_email",
  "contact_person",
  "phone",
  "default_storage_id",
] as const;

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const form = await request.formData();
  if (form.get("intent") !== "save") unknownIntent();
  const values: Record<string, string | null> = {};
  for (const f of FIELDS) values[f] = String(form.get(f) ?? "");
  const parsed = OrganizationFieldsSchema.safeParse({
    ...values,
    default_storage_id: values.default_storage_id || null,
  });
  if (!parsed.success) return json({ values, errors: issuesToErrors(parsed.error.issues) }, { status: 422 });
  const result = await updateOrganization(db(), ctx, ctx.organizationId, parsed.data);
  if (result !== "ok")
    return json(
      { values, errors: { default_storage_id: ["accounts:organization.storageInvalid"] } as Record<string, string[]> },
      { status: 422 },
    );
  return redirectWithToast("/settings/organization", { type: "success", key: "accounts:settings.saved" });
}

export default function OrganizationSettingsPage() {
  const { t } = useTranslation("accounts");
  const { organization, storages } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const value = (k: (typeof FIELDS)[number]) => (data?.values?.[k] ?? organization[k] ?? "") as string;
  const err = (k: string) => data?.errors?.[k]?.map((e) => t(e));
  const text = (k: (typeof FIELDS)[number], type = "text") => (
    <Field
      label={t(`organization.${k}`)}
      inputProps={{ name: k, id: k, type, defaultValue: value(k), required: k === "name" }}
      errors={err(k)}
    />
  );
  return (
    <div className="page page-narrow">
      <h1 className="page-title">{t("settings.title")}</h1>
      <SettingsTabs isAdmin />
      <Form method="POST" className="card" data-testid="organization-form">
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
            inputProps={{
              name: "vat_code",
              id: "vat_code",
              defaultValue: value("vat_code"),
              placeholder: "EE123456789",
            }}
            errors={err("vat_code")}
            hint={t("organization.vatHint")}
          />
          {text("invoice_email", "email")}
          {text("contact_person")}
          {text("phone", "tel")}
          <SelectField
            name="default_storage_id"
            label={t("organization.default_storage_id")}
            value={value("default_storage_id")}
            required={false}
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
