import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { ReportsUnavailable, ReportTabs } from "~/components/reports/report-tabs";
import { EmptyState } from "~/components/ui/empty-state";
import { isoDayToDisplay, volumeUnitLabel } from "~/domain/format";
import { listReports } from "~/models/report.server";
import { requireAppAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { useFormat } from "~/utils/use-format";
import { useLiveRevalidate } from "~/utils/use-live-revalidate";

// /reports: the organisation's reports and those sent to it, newest first. Unseen ones are in
// the info colour; one still generating does not open (the spec's alert). A finished job
// (storage-report-updated on the organisation's channel) reloads the list.

export const handle = { i18n: ["reports", "lookups"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const mixedStack = ctx.features.includes("mixed_stack_reports");
  if (!ctx.features.includes("reports")) return json({ enabled: false as const, mixedStack });
  const reports = await listReports(db(), ctx);
  return json({ enabled: true as const, mixedStack, organizationId: ctx.organizationId, reports });
}

export default function ReportsList() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation(["reports", "lookups"]);
  const f = useFormat();
  const [params] = useSearchParams();
  // With JavaScript a click on a generating report shows the alert in place; without it the
  // detail page sends the browser back here with ?generating=<id>.
  const [generatingAlert, setGeneratingAlert] = useState(false);
  useLiveRevalidate(data.enabled ? `organization:${data.organizationId}` : null, "storage-report-updated");
  if (!data.enabled) return <ReportsUnavailable />;
  const create = (
    <Link className="btn btn-primary" to="/reports/new" data-testid="new-report">
      {t("list.create")}
    </Link>
  );
  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title">{t("title")}</h1>
        <div className="page-actions">{data.reports.length ? create : null}</div>
      </div>
      <ReportTabs mixedStack={data.mixedStack} />
      {generatingAlert || params.get("generating") ? (
        <div className="alert alert-warning" role="alert" data-testid="still-generating">
          {t("list.stillGenerating")}
        </div>
      ) : null}
      {data.reports.length === 0 ? (
        <EmptyState title={t("list.emptyTitle")} text={t("list.emptyText")} testId="reports-empty">
          {create}
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="reports-list">
            <thead>
              <tr>
                <th scope="col">{t("fields.name")}</th>
                <th scope="col">{t("fields.reportedAt")}</th>
                <th scope="col">{t("fields.volumeFormula")}</th>
                <th scope="col">{t("fields.volumeUnit")}</th>
                <th scope="col" className="num">
                  {t("list.measurements")}
                </th>
                <th scope="col">{t("list.counterpart")}</th>
                <th scope="col">{t("list.status")}</th>
              </tr>
            </thead>
            <tbody>
              {data.reports.map((r) => (
                <tr
                  key={r.id}
                  className={r.unseen ? "report-unseen" : undefined}
                  data-testid={`report-row-${r.id}`}
                  data-unseen={r.unseen || undefined}
                >
                  <td>
                    <Link
                      to={`/reports/${r.id}`}
                      data-testid={`report-link-${r.id}`}
                      onClick={(e) => {
                        if (r.generating_in_progress) {
                          e.preventDefault();
                          setGeneratingAlert(true);
                        }
                      }}
                    >
                      {r.name}
                    </Link>
                  </td>
                  <td>{isoDayToDisplay(r.reported_at)}</td>
                  <td>{t(`lookups:formulas.${r.volume_formula}.name`)}</td>
                  <td>{volumeUnitLabel(r.volume_unit)}</td>
                  <td className="num">{f.count(r.measurements_count)}</td>
                  <td>
                    {r.counterpart
                      ? t(r.side === "owner" ? "list.sentTo" : "list.receivedFrom", { name: r.counterpart })
                      : null}
                  </td>
                  <td data-testid={`report-status-${r.id}`}>
                    {r.generating_in_progress ? (
                      <span className="badge badge-warning">{t("status.generating")}</span>
                    ) : r.confirmed ? (
                      <span className="badge badge-success">{t("status.confirmed")}</span>
                    ) : r.unseen ? (
                      <span className="badge badge-info">{t("status.unseen")}</span>
                    ) : (
                      <span className="badge">{t("status.ready")}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
