import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { isRouteErrorResponse, Link, useLoaderData, useNavigation, useRouteError } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { ReportTabs } from "~/components/reports/report-tabs";
import { EmptyState } from "~/components/ui/empty-state";
import { tonsToKg } from "~/domain/mixed-stack";
import { canEditMixedStackReports, listMixedStackReports } from "~/models/mixed-stack-report.server";
import { requireAppUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { useFormat } from "~/utils/use-format";
import { requireMixedStackScreens } from "./__mixed-stack.server";

// /reports/mixed-stack: the organisation's mixed stack reports (total delivery in kg), newest
// change first; each row opens /reports/mixed-stack/{id}.

export const handle = { i18n: ["mixed-stack", "timber", "reports"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  requireMixedStackScreens(ctx);
  const reports = await listMixedStackReports(db(), ctx);
  return json({
    canEdit: canEditMixedStackReports(ctx),
    reports: reports.map((r) => ({
      ...r,
      total_delivery_kg: r.total_delivery_tons === null ? null : tonsToKg(r.total_delivery_tons),
    })),
  });
}

export default function MixedStackReportsList() {
  const { reports, canEdit } = useLoaderData<typeof loader>();
  const { t } = useTranslation("mixed-stack");
  const f = useFormat();
  const loading = useNavigation().state === "loading";
  const create = canEdit ? (
    <Link className="btn btn-primary" to="/reports/mixed-stack/new" data-testid="new-mixed-stack-report">
      {t("list.create")}
    </Link>
  ) : null;
  return (
    <div className="page" aria-busy={loading || undefined}>
      <div className="page-header">
        <h1 className="page-title">{t("list.title")}</h1>
        <div className="page-actions">{reports.length ? create : null}</div>
      </div>
      <ReportTabs mixedStack />
      {reports.length === 0 ? (
        <EmptyState title={t("list.emptyTitle")} text={t("list.emptyText")} testId="mixed-stack-empty">
          {create}
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="mixed-stack-list">
            <thead>
              <tr>
                <th scope="col">{t("fields.name")}</th>
                <th scope="col" className="num">
                  {t("list.totalDeliveryKg")}
                </th>
                <th scope="col" className="num">
                  {t("groups.close_up")}
                </th>
                <th scope="col" className="num">
                  {t("groups.far_away")}
                </th>
                <th scope="col">{t("list.updated")}</th>
              </tr>
            </thead>
            <tbody>
              {reports.map((r) => (
                <tr key={r.id} data-testid={`mixed-stack-row-${r.id}`}>
                  <td>
                    <Link to={`/reports/mixed-stack/${r.id}`}>{r.name}</Link>
                  </td>
                  <td className="num" data-testid={`mixed-stack-kg-${r.id}`}>
                    {f.quantity(r.total_delivery_kg, 0, "kg")}
                  </td>
                  <td className="num">{f.count(r.close_up_count)}</td>
                  <td className="num">{f.count(r.far_away_count)}</td>
                  <td>{f.dateTime(r.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** Not allowed or not found: the app's error screen; any other failure: a danger alert on the list's page. */
export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation("mixed-stack");
  if (isRouteErrorResponse(error) && error.status < 500) return <GeneralErrorBoundary />;
  return (
    <div className="page">
      <h1 className="page-title">{t("list.title")}</h1>
      <div className="alert alert-danger" role="alert" data-testid="mixed-stack-load-failed">
        {t("list.loadFailed")}{" "}
        <Link to="/reports/mixed-stack" reloadDocument>
          {t("list.retry")}
        </Link>
      </div>
    </div>
  );
}
