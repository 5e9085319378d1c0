import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { ReportsUnavailable } from "~/components/reports/report-tabs";
import { Field } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select-field";
import { volumeUnitLabel } from "~/domain/format";
import { VOLUME_UNITS } from "~/domain/units";
import { addJob } from "~/services/jobs.server";
import { startReport } from "~/services/reports.server";
import { requireAppAdmin, requireFeature } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { ValidationError } from "~/utils/errors";
import { todayIn } from "~/utils/reports.server";
import { REPORT_FORMULA_KEYS, ReportCreateSchema } from "~/utils/schemas/reports";
import { redirectWithToast } from "~/utils/toast.server";

// /reports/new: name, volume formula (cylinder by default), volume unit (m³ by default), report
// date (today by default), optionally the recipient organisation's registration code. Then the
// list, where the new report shows as generating until its job ends.

export const handle = { i18n: ["reports", "lookups"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  return json({ enabled: ctx.features.includes("reports"), today: todayIn(ctx.user.time_zone) });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  requireFeature(ctx, "reports");
  const submission = parseWithZod(await request.formData(), { schema: ReportCreateSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 422 });
  try {
    await startReport(db(), ctx, submission.value, addJob);
  } catch (error) {
    if (error instanceof ValidationError) return json(submission.reply({ fieldErrors: error.errors }), { status: 422 });
    throw error;
  }
  return redirectWithToast("/reports", { type: "success", key: "reports:toast.created" });
}

export default function NewReport() {
  const { enabled, today } = useLoaderData<typeof loader>();
  const lastResult = useActionData<SubmissionResult<string[]>>();
  const saving = useNavigation().state === "submitting";
  const { t } = useTranslation(["reports", "lookups"]);
  const [form, fields] = useForm({
    id: "report-new",
    lastResult,
    constraint: getZodConstraint(ReportCreateSchema),
    defaultValue: { volume_formula: "cylinder", volume_unit: "m^3", reported_at: today },
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ReportCreateSchema }),
  });
  if (!enabled) return <ReportsUnavailable />;
  const tr = (errors?: string[]) => errors?.map((e) => t(e));
  return (
    <div className="page narrow-page">
      <div className="page-header">
        <h1 className="page-title">{t("new.title")}</h1>
        <Link className="btn" to="/reports">
          {t("back")}
        </Link>
      </div>
      <Form method="post" className="card" data-testid="report-new-form" {...getFormProps(form)}>
        <fieldset disabled={saving} className="form-grid">
          <Field
            label={t("fields.name")}
            inputProps={getInputProps(fields.name, { type: "text" })}
            errors={tr(fields.name.errors)}
          />
          <SelectField
            label={t("fields.volumeFormula")}
            selectProps={getSelectProps(fields.volume_formula)}
            options={REPORT_FORMULA_KEYS.map((k) => [k, t(`lookups:formulas.${k}.name`)])}
            errors={tr(fields.volume_formula.errors)}
            placeholder={false}
          />
          <SelectField
            label={t("fields.volumeUnit")}
            selectProps={getSelectProps(fields.volume_unit)}
            options={VOLUME_UNITS.map((u) => [u, volumeUnitLabel(u)])}
            errors={tr(fields.volume_unit.errors)}
            placeholder={false}
          />
          <Field
            label={t("fields.reportedAt")}
            inputProps={getInputProps(fields.reported_at, { type: "date" })}
            errors={tr(fields.reported_at.errors)}
          />
          <Field
            label={t("fields.recipientCode")}
            inputProps={getInputProps(fields.recipient_registration_code, { type: "text" })}
            errors={tr(fields.recipient_registration_code.errors)}
            hint={t("new.recipientHint")}
          />
          <button type="submit" className="btn btn-primary" data-testid="report-create">
            {t("new.submit")}
          </button>
        </fieldset>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
