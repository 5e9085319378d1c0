import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CaseWalker } from "~/components/analysis/case-walker";
import { AnalysisFeatureNotice } from "~/components/analysis/feature-notice";
import { StatusBadge } from "~/components/analysis/status-badge";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { EmptyState } from "~/components/ui/empty-state";
import { getAnalyzeReport, listCases, resolveCase, serializeAnalyzeReport } from "~/models/analyze-report.server";
import { listStorages } from "~/models/lookup.server";
import { parseId } from "~/utils/api.server";
import { requireAppAdmin, requireFeature } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { notFound, unknownIntent, withAppErrors } from "~/utils/errors";
import { measurementTypeName } from "~/utils/lookup-name";
import { redirectWithToast } from "~/utils/toast.server";
import { useFormat } from "~/utils/use-format";

// One analysis: what was analysed, how long it took, and its cases 5 per page. A case lists its
// measurements; "walk" opens them one at a time (?case=&at=), with an alert past either end.

export const handle = { i18n: ["analysis", "lookups"] };
const FEATURE = "duplicate_storage_measurements";
const INTENT_RESOLVE = "resolve";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  // Another organisation's report is 404 whatever the caller's plan: looked up before the feature.
  const report = await getAnalyzeReport(db(), ctx, parseId(params.id));
  if (!report) notFound();
  if (!ctx.features.includes(FEATURE)) return json({ enabled: false as const });
  const url = new URL(request.url);
  const cases = await listCases(db(), ctx, report.id, Number(url.searchParams.get("page")) || 1);
  const storageNames = report.storage_ids.length
    ? (await listStorages(db(), ctx)).filter((s) => report.storage_ids.includes(s.id)).map((s) => s.name)
    : [];
  const walkCase = Number(url.searchParams.get("case"));
  const walkAt = Number(url.searchParams.get("at"));
  return json({
    enabled: true as const,
    report: serializeAnalyzeReport(report),
    storageNames,
    ...cases,
    walk: cases.cases.some((c) => c.id === walkCase)
      ? { caseId: walkCase, at: Number.isInteger(walkAt) ? walkAt : 0 }
      : null,
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const reportId = parseId(params.id);
  if (!(await getAnalyzeReport(db(), ctx, reportId))) notFound();
  requireFeature(ctx, FEATURE);
  const form = await request.formData();
  switch (form.get("intent")) {
    case INTENT_RESOLVE: {
      const caseId = parseId(String(form.get("case_id") ?? ""));
      await withAppErrors(() => resolveCase(db(), ctx, reportId, caseId));
      const page = Number(form.get("page")) || 1;
      return redirectWithToast(`/analyze_reports/${reportId}?page=${page}`, {
        type: "success",
        key: "analysis:toast.resolved",
      });
    }
    default:
      unknownIntent();
  }
}

export default function AnalyzeReportPage() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("analysis");
  const f = useFormat();
  const busy = useNavigation().state !== "idle";
  if (!data.enabled) {
    return (
      <div className="page">
        <h1 className="page-title">{t("list.title")}</h1>
        <AnalysisFeatureNotice />
      </div>
    );
  }
  const { report } = data;
  const dayText = (iso: string) => f.date(`${iso}T12:00:00Z`);
  const pageLink = (page: number) => `/analyze_reports/${report.id}?page=${page}`;
  return (
    <div className="page" aria-busy={busy || undefined}>
      <div className="page-header">
        <h1 className="page-title" data-testid="analysis-name">
          {report.name}
        </h1>
        <Link to="/analyze_reports" className="btn">
          {t("detail.back")}
        </Link>
      </div>
      <dl className="detail-totals card" data-testid="analysis-summary">
        <div>
          <dt>{t("fields.type")}</dt>
          <dd>{t(`types.${report.type_key}`)}</dd>
        </div>
        <div>
          <dt>{t("fields.status")}</dt>
          <dd>
            <StatusBadge status={report.status} />
          </dd>
        </div>
        <div>
          <dt>{t("fields.period")}</dt>
          <dd data-testid="analysis-period">
            {dayText(report.period_from)} – {dayText(report.period_to)}
          </dd>
        </div>
        <div>
          <dt>{t("fields.measurementTypes")}</dt>
          <dd>
            {report.measurement_types.length
              ? report.measurement_types.map((id) => measurementTypeName(t, id)).join(", ")
              : t("detail.all")}
          </dd>
        </div>
        <div>
          <dt>{t("fields.storages")}</dt>
          <dd>{data.storageNames.length ? data.storageNames.join(", ") : t("detail.all")}</dd>
        </div>
        <div>
          <dt>{t("fields.duration")}</dt>
          <dd data-testid="analysis-duration">
            {report.duration_minutes === null ? "-" : t("detail.minutes", { count: report.duration_minutes })}
          </dd>
        </div>
        <div>
          <dt>{t("fields.createdAt")}</dt>
          <dd>{f.dateTime(report.created_at)}</dd>
        </div>
      </dl>

      {report.status !== "finished" ? (
        <div className="alert alert-info" role="status" data-testid="analysis-not-finished">
          {t(`detail.notFinished.${report.status}`)} {report.status_detail ?? ""}
        </div>
      ) : data.total === 0 ? (
        <EmptyState title={t("detail.noCasesTitle")} text={t("detail.noCases")} testId="cases-empty" />
      ) : (
        <>
          <h2>{t("detail.cases", { count: data.total })}</h2>
          <ol className="case-list" data-testid="cases">
            {data.cases.map((c) => (
              <li key={c.id} className="card" data-testid="case" data-case-id={c.id}>
                <div className="page-header">
                  <div className="role-list">
                    {c.reasons.map((r) => (
                      <span key={r} className="badge badge-warning" data-testid="case-reason">
                        {t(`reasons.${r}`)}
                      </span>
                    ))}
                  </div>
                  {c.resolved_at ? (
                    <span className="badge badge-success" data-testid="case-resolved">
                      {t("detail.resolvedAt", { time: f.dateTime(c.resolved_at) })}
                    </span>
                  ) : (
                    <Form method="POST">
                      <input type="hidden" name="intent" value={INTENT_RESOLVE} />
                      <input type="hidden" name="case_id" value={c.id} />
                      <input type="hidden" name="page" value={data.page} />
                      <button type="submit" className="btn btn-primary" disabled={busy} data-testid="resolve-case">
                        {t("detail.resolve")}
                      </button>
                    </Form>
                  )}
                </div>
                <div className="table-wrap">
                  <table className="table">
                    <thead>
                      <tr>
                        <th>{t("fields.photo")}</th>
                        <th>{t("fields.storage")}</th>
                        <th>{t("fields.takenAt")}</th>
                        <th>{t("fields.volume")}</th>
                        <th>{t("fields.logs")}</th>
                        <th />
                      </tr>
                    </thead>
                    <tbody>
                      {c.items.map((m, index) => (
                        <tr key={m.id} data-testid="case-measurement">
                          <td>
                            {m.photo_thumbnail ? (
                              <img src={m.photo_thumbnail} alt={t("detail.photoAlt", { id: m.id })} width={64} />
                            ) : (
                              t("detail.noPhoto")
                            )}
                          </td>
                          <td>{m.storage_name}</td>
                          <td>{f.dateTime(m.taken_at)}</td>
                          <td>{f.volume(m.volume)}</td>
                          <td>{f.count(m.logs_count)}</td>
                          <td>
                            <Link to={`/measurements/timber/${m.id}`}>{t("detail.open", { id: m.id })}</Link>{" "}
                            <Link
                              to={`${pageLink(data.page)}&case=${c.id}&at=${index}`}
                              preventScrollReset
                              data-testid="walk-case"
                            >
                              {t("detail.walk")}
                            </Link>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
                {data.walk?.caseId === c.id ? (
                  <CaseWalker
                    items={c.items}
                    at={data.walk.at}
                    linkTo={(at) => `${pageLink(data.page)}&case=${c.id}&at=${at}`}
                  />
                ) : null}
              </li>
            ))}
          </ol>
          {data.pages > 1 ? (
            <nav className="pagination" aria-label={t("detail.pages")} data-testid="cases-pagination">
              {data.page > 1 ? <Link to={pageLink(data.page - 1)}>{t("detail.previousPage")}</Link> : null}
              <span>{t("detail.pageOf", { page: data.page, pages: data.pages })}</span>
              {data.page < data.pages ? <Link to={pageLink(data.page + 1)}>{t("detail.nextPage")}</Link> : null}
            </nav>
          ) : null}
        </>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
