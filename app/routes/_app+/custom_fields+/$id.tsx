import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
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
import { requireAppAdmin, requireFeature } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { unknownIntent, notFound } from "~/utils/errors";
import {
  CustomFieldEditFormSchema,
  CustomFieldValueFieldsSchema,
  CustomFieldValueRowFormSchema,
} from "~/utils/schemas/custom-fields";
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
  requireFeature(ctx, "custom_fields");
  const id = parseId(params.id);
  if (!(await getCustomField(db(), ctx, id))) notFound();
  const form = await request.formData();
  const back = () => redirectWithToast(`/custom_fields/${id}`, { type: "success", key: "accounts:customFields.saved" });
  switch (form.get("intent")) {
    case "update": {
      const submission = parseWithZod(form, { schema: CustomFieldEditFormSchema });
      if (submission.status !== "success")
        return json({ intent: "update" as const, result: submission.reply() }, { status: 422 });
      await updateCustomField(db(), ctx, id, submission.value);
      return back();
    }
    case "add_value": {
      const submission = parseWithZod(form, { schema: CustomFieldValueFieldsSchema });
      if (submission.status !== "success")
        return json({ intent: "add_value" as const, result: submission.reply() }, { status: 422 });
      await addCustomFieldValue(db(), ctx, id, submission.value);
      return back();
    }
    case "value": {
      const submission = parseWithZod(form, { schema: CustomFieldValueRowFormSchema });
      const valueId =
        submission.status === "success" ? submission.value.value_id : parseId(String(form.get("value_id")));
      const value = await getCustomFieldValue(db(), ctx, valueId);
      if (value?.custom_field_id !== id) notFound();
      if (submission.status !== "success")
        return json({ intent: "value" as const, valueId, result: submission.reply() }, { status: 422 });
      const { rank, archived } = submission.value;
      await updateCustomFieldValue(db(), ctx, valueId, { rank, archived });
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
  const [form, fields] = useForm({
    id: "custom-field",
    lastResult: data?.intent === "update" ? data.result : undefined,
    defaultValue: {
      name: field.name,
      searchable: field.searchable,
      required: field.required,
      archived: field.archived,
    },
    constraint: getZodConstraint(CustomFieldEditFormSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CustomFieldEditFormSchema }),
  });
  const [valueForm, valueFields] = useForm({
    id: "custom-field-value",
    lastResult: data?.intent === "add_value" ? data.result : undefined,
    constraint: getZodConstraint(CustomFieldValueFieldsSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CustomFieldValueFieldsSchema }),
  });
  const [newValue, setNewValue] = useState(valueFields.value.initialValue ?? "");
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
      <Form method="POST" className="card" data-testid="custom-field-form" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="update" />
        <Field
          label={t("customFields.name")}
          inputProps={getInputProps(fields.name, { type: "text" })}
          errors={fields.name.errors?.map((e) => t(e))}
        />
        <label className="checkbox">
          <input {...getInputProps(fields.searchable, { type: "checkbox" })} /> {t("customFields.searchable")}
        </label>
        <label className="checkbox">
          <input {...getInputProps(fields.required, { type: "checkbox" })} /> {t("customFields.required")}
        </label>
        <label className="checkbox">
          <input {...getInputProps(fields.archived, { type: "checkbox" })} /> {t("common.archived")}
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
              <ValueRow
                value={v}
                enabled={enabled}
                lastResult={data?.intent === "value" && data.valueId === v.id ? data.result : undefined}
              />
            </li>
          ))}
        </ul>
        <Form method="POST" className="value-row" {...getFormProps(valueForm)}>
          <input type="hidden" name="intent" value="add_value" />
          <Field
            label={t("customFields.newValue")}
            inputProps={{
              ...getInputProps(valueFields.value, { type: "text", value: false }),
              value: newValue,
              onChange: (e) => setNewValue(e.target.value),
            }}
            errors={valueFields.value.errors?.map((e) => t(e))}
          />
          <button type="submit" className="btn btn-primary" disabled={!enabled || (hydrated && newValue.trim() === "")}>
            {t("customFields.addValue")}
          </button>
        </Form>
      </section>
    </div>
  );
}

/** One value's rank and archived flag: a form of its own (several on the page, each keyed by its value). */
function ValueRow({
  value,
  enabled,
  lastResult,
}: {
  value: { id: number; value: string; rank: number; archived: boolean };
  enabled: boolean;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const { t } = useTranslation("accounts");
  const [form, fields] = useForm({
    id: `custom-field-value-${value.id}`,
    lastResult,
    defaultValue: { value_id: String(value.id), rank: String(value.rank), archived: value.archived },
    constraint: getZodConstraint(CustomFieldValueRowFormSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CustomFieldValueRowFormSchema }),
  });
  return (
    <Form method="POST" className="value-row" data-testid={`value-row-${value.id}`} {...getFormProps(form)}>
      <input type="hidden" name="intent" value="value" />
      <input {...getInputProps(fields.value_id, { type: "hidden" })} />
      <span className={value.archived ? "muted" : undefined}>{value.value}</span>
      <Field
        label={t("customFields.rank")}
        inputProps={{ ...getInputProps(fields.rank, { type: "number" }), className: "rank-input" }}
        errors={fields.rank.errors?.map((e) => t(e))}
      />
      <label className="checkbox">
        <input {...getInputProps(fields.archived, { type: "checkbox" })} /> {t("common.archived")}
      </label>
      <button type="submit" className="btn btn-small" disabled={!enabled}>
        {t("common.save")}
      </button>
    </Form>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
