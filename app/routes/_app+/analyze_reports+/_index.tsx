import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useNavigate, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { AnalysisFeatureNotice } from "~/components/analysis/feature-notice";
import { StatusBadge } from "~/components/analysis/status-badge";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { EmptyState } from "~/components/ui/empty-state";
import { listAnalyzeReports, serializeAnalyzeReport } from "~/models/analyze-report.server";
import { requireAppAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { useFormat } from "~/utils/use-format";

// The analyses list (admin-only; the duplicate_storage_measurements feature, else the notice).
// Rows still running are followed by a poll until they finish or fail.

export const handle = { i18n: ["analysis", "lookups"] };
export const FEATURE = "duplicate_storage_measurements";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const enabled = ctx.features.includes(FEATURE);
  const rows = enabled ? await listAnalyzeReports(db(), ctx) : [];
  return json({ enabled, reports: rows.map(serializeAnalyzeReport) });
}

export default function AnalyzeReportsPage() {
  const { enabled, reports } = useLoaderData<typeof loader>();
  const { t } = useTranslation("analysis");
  const f = useFormat();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const running = reports.some((r) => r.status === "created");
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => revalidator.state === "idle" && revalidator.revalidate(), 2_000);
    return () => clearInterval(timer);
  }, [running, revalidator]);

  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title">{t("list.title")}</h1>
        {enabled ? (
          <Link to="/analyze_reports/new" className="btn btn-primary" data-testid="new-analysis">
            {t("list.new")}
          </Link>
        ) : null}
      </div>
      {!enabled ? (
        <AnalysisFeatureNotice />
      ) : reports.length === 0 ? (
        <EmptyState title={t("list.emptyTitle")} text={t("list.empty")} testId="analyses-empty" />
      ) : (
        <div className="table-wrap" aria-busy={running || undefined}>
          <table className="table" data-testid="analyses-table">
            <thead>
              <tr>
                <th>{t("fields.name")}</th>
                <th>{t("fields.status")}</th>
                <th>{t("fields.createdAt")}</th>
              </tr>
            </thead>
            <tbody>
              {reports.map((r) => {
                const open = r.status === "finished";
                return (
                  <tr
                    key={r.id}
                    data-testid="analysis-row"
                    data-status={r.status}
                    className={open ? "row-link" : undefined}
                    onClick={open ? () => navigate(`/analyze_reports/${r.id}`) : undefined}
                  >
                    <td>
                      {/* Only finished analyses open (the spec); the others are plain text. */}
                      {open ? <Link to={`/analyze_reports/${r.id}`}>{r.name}</Link> : r.name}
                    </td>
                    <td>
                      <StatusBadge status={r.status} />
                      {r.status === "failed" && r.status_detail ? (
                        <div className="field-hint" data-testid="analysis-failure">
                          {r.status_detail}
                        </div>
                      ) : null}
                    </td>
                    <td>{f.dateTime(r.created_at)}</td>
                  </tr>
                );
              })}
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
