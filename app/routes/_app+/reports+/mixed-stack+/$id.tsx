import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ExportButton } from "~/components/exports/export-button";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { MixedStackFigures, MixedStackGroups } from "~/components/mixed-stack/mixed-stack-figures";
import { PublicLinkPanel } from "~/components/public-links/public-link-dialog";
import { Field } from "~/components/ui/field";
import {
  canEditMixedStackReports,
  getMixedStackReport,
  mixedStackReportExists,
  removeMixedStackMeasurements,
  updateMixedStackReport,
} from "~/models/mixed-stack-report.server";
import { parseId } from "~/utils/api.server";
import { requireAppUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { ForbiddenError, notFound, unknownIntent } from "~/utils/errors";
import { isPublicLinkIntent, publicLinkAction, publicLinkForScreen } from "~/utils/public-link-form.server";
import { MixedStackPatchSchema, MixedStackRemoveSchema } from "~/utils/schemas/mixed-stack";
import { redirectWithToast } from "~/utils/toast.server";
import { useFormat } from "~/utils/use-format";
import { requireMixedStackScreens } from "./__mixed-stack.server";

// /reports/mixed-stack/{id} (and the old /mixed_stack_reports/{id}): a mixed stack report's
// figures, its editor (name and delivered tons; the form is disabled while saving), its two
// groups of measurements with remove buttons, and its public link (rotate or stop).

export const handle = { i18n: ["mixed-stack", "timber", "public", "exports"] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  const id = parseId(params.id);
  const report = await getMixedStackReport(db(), ctx, id);
  if (!report) notFound();
  requireMixedStackScreens(ctx);
  return json({
    report,
    canEdit: canEditMixedStackReports(ctx),
    publicLink: await publicLinkForScreen(ctx, "mixed_stack_report", id, new URL(request.url).origin),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireAppUser(request);
  const id = parseId(params.id);
  if (!(await mixedStackReportExists(db(), ctx.organizationId, id))) notFound();
  requireMixedStackScreens(ctx);
  const back = new URL(request.url).pathname;
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "save");
  if (isPublicLinkIntent(intent)) return publicLinkAction(ctx, "mixed_stack_report", id, intent, back);
  try {
    switch (intent) {
      case "save": {
        const submission = parseWithZod(form, { schema: MixedStackPatchSchema });
        if (submission.status !== "success") return json(submission.reply(), { status: 422 });
        // The form always sends both: an empty tons field clears them.
        const value = { ...submission.value, total_delivery_tons: submission.value.total_delivery_tons ?? null };
        if (value.name === undefined)
          return json(submission.reply({ fieldErrors: { name: ["mixed-stack:errors.name"] } }), { status: 422 });
        await updateMixedStackReport(db(), ctx, id, value);
        return redirectWithToast(back, { type: "success", key: "mixed-stack:toast.saved" });
      }
      case "remove": {
        const parsed = MixedStackRemoveSchema.safeParse({ measurement_ids: form.getAll("measurement_ids").join(",") });
        if (!parsed.success)
          return redirectWithToast(back, { type: "warning", key: "mixed-stack:errors.nothingSelected" });
        await removeMixedStackMeasurements(db(), ctx, id, parsed.data.measurement_ids);
        return redirectWithToast(back, { type: "success", key: "mixed-stack:toast.removed" });
      }
      default:
        unknownIntent();
    }
  } catch (error) {
    if (error instanceof ForbiddenError)
      return redirectWithToast(back, { type: "warning", key: "mixed-stack:errors.forbidden" });
    throw error;
  }
}

export default function MixedStackReportPage() {
  const { report, canEdit, publicLink } = useLoaderData<typeof loader>();
  const lastResult = useActionData<SubmissionResult<string[]>>();
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  const { t } = useTranslation("mixed-stack");
  const f = useFormat();
  const [form, fields] = useForm({
    id: `mixed-stack-${report.id}`,
    lastResult,
    constraint: getZodConstraint(MixedStackPatchSchema),
    defaultValue: {
      name: report.name,
      total_delivery_tons: report.total_delivery_tons === null ? "" : report.total_delivery_tons.toFixed(2),
    },
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: MixedStackPatchSchema }),
  });
  return (
    <div className="page" aria-busy={navigation.state === "loading" || undefined}>
      <div className="page-header">
        <h1 className="page-title" data-testid="mixed-stack-title">
          {report.name}
        </h1>
        <div className="page-actions">
          <ExportButton
            kind="excel"
            reportType="mixed_stack_report_excel"
            fields={{ mixed_stack_report_id: report.id }}
            label={t("excel.button")}
          />
          <Link className="btn" to="/reports/mixed-stack">
            {t("back")}
          </Link>
        </div>
      </div>
      <p className="muted small" data-testid="mixed-stack-updated">
        {t("updatedAt", { when: f.dateTime(report.updated_at) })}
      </p>
      <section className="card">
        <h2 className="card-title">{t("figures.title")}</h2>
        <MixedStackFigures report={report} f={f} />
      </section>
      {canEdit ? (
        <Form method="post" className="card" data-testid="mixed-stack-form" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="save" />
          <fieldset disabled={saving} className="form-grid" data-testid="mixed-stack-fieldset">
            <Field
              label={t("fields.name")}
              inputProps={getInputProps(fields.name, { type: "text" })}
              errors={fields.name.errors?.map((e) => t(e))}
            />
            <Field
              label={t("fields.totalDeliveryTons")}
              inputProps={{
                ...getInputProps(fields.total_delivery_tons, { type: "number" }),
                step: "0.01",
                min: 0,
                inputMode: "decimal",
              }}
              errors={fields.total_delivery_tons.errors?.map((e) => t(e))}
            />
            <button type="submit" className="btn btn-primary" data-testid="mixed-stack-save">
              {saving ? t("saving") : t("save")}
            </button>
          </fieldset>
        </Form>
      ) : null}
      <p className="muted small">{t("groups.howToAdd")}</p>
      <MixedStackGroups
        groups={report.measurements_data}
        f={f}
        removable={canEdit}
        linkTo={(id) => `/measurements/timber/${id}`}
      />
      <section className="card" data-testid="mixed-stack-public-link">
        <h2 className="card-title">{t("publicLink")}</h2>
        <PublicLinkPanel link={publicLink} kind="mixed_stack_report" />
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
