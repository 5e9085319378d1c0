import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { UpsellNotice } from "~/components/accounts/custom-field-tabs";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { Field } from "~/components/ui/field";
import {
  addCustomFieldValue,
  getCustomField,
  getCustomFieldValue,
  updateCustomField,
  updateCustomFieldValue,
} from "~/models/custom-field.server";
import { parseId } from "~/utils/api.server";
import { requireAppAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { issuesToErrors, unknownIntent, notFound } from "~/utils/errors";
import { CustomFieldPatchSchema, CustomFieldValueSchema } from "~/utils/schemas/custom-fields";
import { redirectWithToast } from "~/utils/toast.server";
import { useHydrated } from "~/utils/use-hydrated";

export const handle = { i18n: ["accounts"] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const field = await getCustomField(db(), ctx, parseId(params.id));
  if (!field) notFound();
  return json({ field, enabled: ctx.features.includes("custom_fields") });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  if (!ctx.features.includes("custom_fields")) throw json({ error: "feature_unavailable" }, { status: 403 });
  const id = parseId(params.id);
  if (!(await getCustomField(db(), ctx, id))) notFound();
  const form = await request.formData();
  const back = () => redirectWithToast(`/custom_fields/${id}`, { type: "success", key: "accounts:customFields.saved" });
  switch (form.get("intent")) {
    case "update": {
      const parsed = CustomFieldPatchSchema.safeParse({
        custom_field: {
          name: form.get("name"),
          searchable: form.get("searchable") === "on",
          required: form.get("required") === "on",
          archived: form.get("archived") === "on",
        },
      });
      if (!parsed.success) return json({ errors: issuesToErrors(parsed.error.issues, 1) }, { status: 422 });
      await updateCustomField(db(), ctx, id, parsed.data.custom_field);
      return back();
    }
    case "add_value": {
      const parsed = CustomFieldValueSchema.safeParse({
        custom_field_value: { value: form.get("value"), rank: form.get("rank") || undefined },
      });
      if (!parsed.success) return json({ errors: issuesToErrors(parsed.error.issues, 1) }, { status: 422 });
      await addCustomFieldValue(db(), ctx, id, parsed.data.custom_field_value);
      return back();
    }
    case "value": {
      const valueId = parseId(String(form.get("value_id") ?? ""));
      const value = await getCustomFieldValue(db(), ctx, valueId);
      if (value?.custom_field_id !== id) notFound();
      const rank = Number(form.get("rank"));
      await updateCustomFieldValue(db(), ctx, valueId, {
        rank: Number.isInteger(rank) && rank >= 0 ? rank : undefined,
        archived: form.get("archived") === "on",
      });
      return back();
    }
    default:
      unknownIntent();
  }
}

export default function CustomFieldEditPage() {
  const { t } = useTranslation("accounts");
  const { field, enabled } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const hydrated = useHydrated();
  const [newValue, setNewValue] = useState("");
  const err = (k: string) => data?.errors?.[k]?.map((e) => t(e));
  return (
    <div className="page page-narrow">
      <p>
        <Link to="/custom_fields">← {t("customFields.title")}</Link>
      </p>
      <h1 className="page-title">
        {field.name} <code className="muted">{field.key}</code>
      </h1>
      {!enabled ? <UpsellNotice feature="custom_fields" /> : null}
      <p className="muted">
        {t(`customFields.sources.${field.source_key}`)} · {t(`customFields.types.${field.data_type}`)}
      </p>
      <Form method="POST" className="card">
        <input type="hidden" name="intent" value="update" />
        <Field
          label={t("customFields.name")}
          inputProps={{ name: "name", id: "name", required: true, defaultValue: field.name }}
          errors={err("name")}
        />
        <label className="checkbox">
          <input type="checkbox" name="searchable" defaultChecked={field.searchable} /> {t("customFields.searchable")}
        </label>
        <label className="checkbox">
          <input type="checkbox" name="required" defaultChecked={field.required} /> {t("customFields.required")}
        </label>
        <label className="checkbox">
          <input type="checkbox" name="archived" defaultChecked={field.archived} /> {t("common.archived")}
        </label>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={!enabled}>
            {t("common.save")}
          </button>
        </div>
      </Form>
      <section className="card">
        <h2>{t("customFields.values")}</h2>
        <p className="field-hint">{t("customFields.valuesHint")}</p>
        <ul className="role-rows" data-testid="custom-field-values">
          {field.values.map((v) => (
            <li key={v.id}>
              <Form method="POST" className="value-row">
                <input type="hidden" name="intent" value="value" />
                <input type="hidden" name="value_id" value={v.id} />
                <span className={v.archived ? "muted" : undefined}>{v.value}</span>
                <label>
                  {t("customFields.rank")}{" "}
                  <input type="number" name="rank" min={0} defaultValue={v.rank} className="rank-input" />
                </label>
                <label className="checkbox">
                  <input type="checkbox" name="archived" defaultChecked={v.archived} /> {t("common.archived")}
                </label>
                <button type="submit" className="btn btn-small" disabled={!enabled}>
                  {t("common.save")}
                </button>
              </Form>
            </li>
          ))}
        </ul>
        <Form method="POST" className="value-row">
          <input type="hidden" name="intent" value="add_value" />
          <Field
            label={t("customFields.newValue")}
            inputProps={{
              name: "value",
              id: "value",
              required: true,
              value: newValue,
              onChange: (e) => setNewValue(e.target.value),
            }}
            errors={err("value")}
          />
          <button type="submit" className="btn btn-primary" disabled={!enabled || (hydrated && newValue.trim() === "")}>
            {t("customFields.addValue")}
          </button>
        </Form>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
