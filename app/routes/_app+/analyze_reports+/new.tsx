import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AnalysisFeatureNotice } from "~/components/analysis/feature-notice";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { CheckboxMultiSelect } from "~/components/ui/checkbox-multi-select";
import { DAY_INPUT_PROPS } from "~/components/ui/day-input";
import { Field } from "~/components/ui/field";
import { listStorages } from "~/models/lookup.server";
import { startAnalysis } from "~/services/duplicate-analysis.server";
import { addJob } from "~/services/jobs.server";
import { requireAppAdmin, requireFeature } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { ValidationError } from "~/utils/errors";
import { measurementTypeName } from "~/utils/lookup-name";
import { AnalyzeReportSchema } from "~/utils/schemas/analysis";
import { redirectWithToast } from "~/utils/toast.server";

// A new duplicate analysis: name, period, and optionally storages and measurement types (none
// chosen: all). The type is fixed. Posting makes the report and its job, then the list follows it.

export const handle = { i18n: ["analysis", "timber", "lookups"] };
const FEATURE = "duplicate_storage_measurements";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const enabled = ctx.features.includes(FEATURE);
  const storages = enabled ? await listStorages(db(), ctx) : [];
  return json({ enabled, storages: storages.map((s) => ({ id: s.id, name: s.name })) });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  requireFeature(ctx, FEATURE);
  const submission = parseWithZod(await request.formData(), { schema: AnalyzeReportSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 422 });
  try {
    await startAnalysis(db(), ctx, submission.value, addJob);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return json(submission.reply({ fieldErrors: error.errors }), { status: 422 });
  }
  return redirectWithToast("/analyze_reports", { type: "success", key: "analysis:toast.created" });
}

function asList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return typeof value === "string" && value ? [value] : [];
}

export default function NewAnalyzeReportPage() {
  const { enabled, storages } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { t } = useTranslation("analysis");
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({
    id: "new-analysis",
    lastResult,
    constraint: getZodConstraint(AnalyzeReportSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AnalyzeReportSchema }),
  });
  const errors = (list: string[] | undefined) => list?.map((e) => t(e));
  if (!enabled) {
    return (
      <div className="page page-narrow">
        <h1 className="page-title">{t("new.title")}</h1>
        <AnalysisFeatureNotice />
      </div>
    );
  }
  return (
    <div className="page page-narrow">
      <h1 className="page-title">{t("new.title")}</h1>
      <Form method="POST" className="card" {...getFormProps(form)} aria-busy={busy || undefined}>
        <Field
          label={t("fields.name")}
          inputProps={{ ...getInputProps(fields.name, { type: "text" }), maxLength: 255, autoFocus: true }}
          errors={errors(fields.name.errors)}
        />
        <div className="field">
          <span className="field-label">{t("fields.type")}</span>
          <div data-testid="analysis-type">{t("types.duplicate_storage_measurements")}</div>
          <input type="hidden" name="type_key" value="duplicate_storage_measurements" />
        </div>
        <div className="form-row">
          <Field
            label={t("fields.periodFrom")}
            inputProps={{ ...getInputProps(fields.period_from, { type: "text" }), ...DAY_INPUT_PROPS }}
            errors={errors(fields.period_from.errors)}
          />
          <Field
            label={t("fields.periodTo")}
            inputProps={{ ...getInputProps(fields.period_to, { type: "text" }), ...DAY_INPUT_PROPS }}
            errors={errors(fields.period_to.errors)}
          />
        </div>
        <CheckboxMultiSelect
          id="analysis-measurement-types"
          name="measurement_types"
          label={t("fields.measurementTypes")}
          options={[0, 1, 2, 3].map((id) => ({ id, name: measurementTypeName(t, id) }))}
          selected={asList(fields.measurement_types.initialValue)}
          invalid={Boolean(fields.measurement_types.errors?.length)}
        />
        <CheckboxMultiSelect
          id="analysis-storages"
          name="storage_ids"
          label={t("fields.storages")}
          options={storages}
          selected={asList(fields.storage_ids.initialValue)}
          invalid={Boolean(fields.storage_ids.errors?.length)}
        />
        {fields.storage_ids.errors?.length ? (
          <ul className="field-errors" role="alert">
            {errors(fields.storage_ids.errors)!.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        ) : null}
        <p className="field-hint">{t("new.allHint")}</p>
        <div className="form-actions">
          <Link to="/analyze_reports" className="btn">
            {t("new.cancel")}
          </Link>
          <button type="submit" className="btn btn-primary" disabled={busy} data-testid="start-analysis">
            {t("new.submit")}
          </button>
        </div>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
