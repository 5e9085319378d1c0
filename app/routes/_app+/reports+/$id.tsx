import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ExportButton } from "~/components/exports/export-button";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { ReportsUnavailable } from "~/components/reports/report-tabs";
import { ReportTallyTables } from "~/components/reports/report-tallies";
import { isoDayToDisplay, volumeUnitLabel } from "~/domain/format";
import { organizationNameAndCurrency } from "~/models/report-lookups.server";
import { confirmReport, isAudience, markReportSeen, openReport, reportMeasurementsPage } from "~/models/report.server";
import { parseId } from "~/utils/api.server";
import { requireAppAdmin, requireFeature } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { unknownIntent, withAppErrors } from "~/utils/errors";
import { redirectWithToast } from "~/utils/toast.server";
import { useFormat } from "~/utils/use-format";

// /reports/{id}: the report's tallies (logs by diameter, assortments with prices and value,
// culls), its measurements' thumbnails 5 a page, and Confirm (one way, then disabled). Opening it
// marks it seen for its audience. A report still generating is not opened (back to the list's alert).

export const handle = { i18n: ["reports", "lookups", "exports"] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const id = parseId(params.id);
  // Another organisation's report is not found, whatever the caller's plan.
  const { report: opened, side } = await withAppErrors(() => openReport(db(), ctx, id));
  if (!ctx.features.includes("reports")) return json({ enabled: false as const });
  if (opened.generating_in_progress) throw redirect(`/reports?generating=${id}`);
  const report = await markReportSeen(db(), ctx, id);
  const page = Math.max(1, Number(new URL(request.url).searchParams.get("page")) || 1);
  const [measurements, owner, recipient] = await Promise.all([
    reportMeasurementsPage(db(), report, page),
    organizationNameAndCurrency(db(), report.organization_id),
    report.recipient_organization_id ? organizationNameAndCurrency(db(), report.recipient_organization_id) : null,
  ]);
  return json({
    enabled: true as const,
    // The entitlements of the invoice and the delivery sheet (the caller's organisation's).
    files: {
      invoice: ctx.features.includes("bill_of_lading_invoice"),
      igl: ctx.features.includes("igl_excel"),
    },
    side,
    canConfirm: isAudience(report, side) && !report.confirmed,
    audience: isAudience(report, side),
    currency: owner?.currency ?? "EUR",
    counterpart: side === "owner" ? (recipient?.name ?? null) : (owner?.name ?? null),
    report: {
      id: report.id,
      name: report.name,
      volume_formula: report.volume_formula,
      volume_unit: report.volume_unit,
      reported_at: report.reported_at,
      confirmed: report.confirmed,
      confirmed_at: report.confirmed_at,
      seen_at: report.seen_at,
      generation_error: report.generation_error,
      details: report.details,
    },
    measurements,
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  requireFeature(ctx, "reports");
  const id = parseId(params.id);
  const form = await request.formData();
  if (form.get("intent") !== "confirm") unknownIntent();
  await withAppErrors(() => confirmReport(db(), ctx, id));
  return redirectWithToast(`/reports/${id}`, { type: "success", key: "reports:toast.confirmed" });
}

export default function ReportDetail() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation(["reports", "lookups"]);
  const f = useFormat();
  const navigation = useNavigation();
  if (!data.enabled) return <ReportsUnavailable />;
  const { report, measurements } = data;
  const unit = volumeUnitLabel(report.volume_unit);
  const confirming = navigation.state === "submitting" && navigation.formData?.get("intent") === "confirm";
  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title" data-testid="report-name">
          {report.name}
        </h1>
        <div className="page-actions">
          <Link className="btn" to="/reports">
            {t("back")}
          </Link>
        </div>
      </div>
      <dl className="info-list" data-testid="report-info">
        <dt>{t("fields.reportedAt")}</dt>
        <dd>{isoDayToDisplay(report.reported_at)}</dd>
        <dt>{t("fields.volumeFormula")}</dt>
        <dd>{t(`lookups:formulas.${report.volume_formula}.name`)}</dd>
        <dt>{t("fields.volumeUnit")}</dt>
        <dd>{unit}</dd>
        {data.counterpart ? (
          <>
            <dt>{t(data.side === "owner" ? "detail.sentTo" : "detail.sentBy")}</dt>
            <dd data-testid="report-counterpart">{data.counterpart}</dd>
          </>
        ) : null}
      </dl>
      {report.generation_error ? (
        <div className="alert alert-danger" role="alert">
          {t("detail.generationFailed")}
        </div>
      ) : null}
      <section className="card" aria-labelledby="report-confirm-title">
        <h2 id="report-confirm-title">{t("detail.confirmTitle")}</h2>
        {report.confirmed ? (
          <p className="alert alert-success" data-testid="report-confirmed">
            {t("detail.confirmedAt", { when: f.dateTime(report.confirmed_at) })}
          </p>
        ) : data.audience ? (
          <p>{t("detail.confirmHelp")}</p>
        ) : (
          <p>{t("detail.recipientConfirms")}</p>
        )}
        {data.audience ? (
          <Form
            method="post"
            onSubmit={(e) => {
              if (!window.confirm(t("detail.confirmQuestion"))) e.preventDefault();
            }}
          >
            <input type="hidden" name="intent" value="confirm" />
            <button
              type="submit"
              className="btn btn-primary"
              disabled={!data.canConfirm || confirming}
              data-testid="report-confirm"
            >
              {report.confirmed ? t("status.confirmed") : t("detail.confirm")}
            </button>
          </Form>
        ) : null}
      </section>
      <ReportFiles
        reportId={report.id}
        formula={t(`lookups:formulas.${report.volume_formula}.name`)}
        invoice={data.files.invoice}
        igl={data.files.igl}
      />
      <ReportTallyTables details={report.details} unit={report.volume_unit} currency={data.currency} />
      <section aria-labelledby="report-measurements-title">
        <h2 id="report-measurements-title">{t("detail.measurements", { count: measurements.total })}</h2>
        {measurements.items.length === 0 ? (
          <p className="muted">{t("detail.noMeasurements")}</p>
        ) : (
          <ul className="report-thumbs" data-testid="report-thumbnails">
            {measurements.items.map((m) => (
              <li key={m.id} className="measurement-card" data-testid={`report-measurement-${m.id}`}>
                {m.photo_thumbnail ? (
                  <img
                    className="thumb"
                    src={m.photo_thumbnail}
                    alt={t("detail.photoAlt", { id: m.id })}
                    width={80}
                    height={80}
                  />
                ) : (
                  <span className="thumb thumb-pending">{t("detail.noPhoto")}</span>
                )}
                <span className="measurement-meta">
                  {data.side === "owner" ? (
                    <Link to={`/measurements/timber/${m.id}`}>{t("detail.measurement", { id: m.id })}</Link>
                  ) : (
                    <strong>{t("detail.measurement", { id: m.id })}</strong>
                  )}
                  <span>{f.date(m.taken_at)}</span>
                  <span>{t("detail.logs", { count: m.logs_count })}</span>
                </span>
              </li>
            ))}
          </ul>
        )}
        {measurements.totalPages > 1 ? (
          <nav className="pager" aria-label={t("detail.pages")} data-testid="report-pager">
            {measurements.page > 1 ? (
              <Link to={`?page=${measurements.page - 1}`} className="btn btn-small">
                {t("detail.previous")}
              </Link>
            ) : null}
            <span>{t("detail.page", { page: measurements.page, pages: measurements.totalPages })}</span>
            {measurements.page < measurements.totalPages ? (
              <Link to={`?page=${measurements.page + 1}`} className="btn btn-small" data-testid="report-next-page">
                {t("detail.next")}
              </Link>
            ) : null}
          </nav>
        ) : null}
      </section>
    </div>
  );
}

/**
 * The report's files (docs/decisions/026): each button asks for its export (a plain form post
 * without JavaScript); the invoice and the delivery sheet only with their entitlements.
 */
function ReportFiles(props: { reportId: number; formula: string; invoice: boolean; igl: boolean }) {
  const { t } = useTranslation("reports");
  const fields = { report_id: String(props.reportId) };
  return (
    <section className="card" aria-labelledby="report-files-title" data-testid="report-files">
      <h2 id="report-files-title" className="card-title">
        {t("files.title")}
      </h2>
      <div className="page-actions report-files">
        <ExportButton kind="excel" reportType="reports_excel" fields={fields} label={t("detail.excel")} />
        <ExportButton kind="pdf" reportType="report_pdf" fields={fields} label={t("files.pdf")} />
        <ExportButton kind="excel" reportType="report_log_by_log_excel" fields={fields} label={t("files.logByLog")} />
        <ExportButton kind="excel" reportType="report_tally_sheet_excel" fields={fields} label={t("files.tallySheet")}>
          <label htmlFor="tally-formula">{t("files.tallyFormula")}</label>
          <select id="tally-formula" name="tally_formula" defaultValue="report">
            <option value="report">{t("files.tallyReportFormula", { formula: props.formula })}</option>
            <option value="jas">{t("files.tallyJas")}</option>
          </select>
        </ExportButton>
        {props.invoice ? (
          <ExportButton kind="excel" reportType="report_invoice_excel" fields={fields} label={t("files.invoice")} />
        ) : null}
        {props.igl ? <ExportButton kind="excel" reportType="igl_excel" fields={fields} label={t("files.igl")} /> : null}
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
