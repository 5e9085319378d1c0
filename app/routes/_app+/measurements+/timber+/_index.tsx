import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator, useRouteLoaderData } from "@remix-run/react";
import leafletCss from "leaflet/dist/leaflet.css";
import { useTranslation } from "react-i18next";
import clusterCss from "react-leaflet-cluster/dist/assets/MarkerCluster.css";
import clusterDefaultCss from "react-leaflet-cluster/dist/assets/MarkerCluster.Default.css";
import { ExportButton } from "~/components/exports/export-button";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { QuickRanges, useHrefWith } from "~/components/measurements/quick-ranges";
import { FilterPanel } from "~/components/timber/filter-panel";
import { MapPanel } from "~/components/timber/map-panel";
import { StoragesTable } from "~/components/timber/storages-table";
import { EmptyState } from "~/components/ui/empty-state";
import { getExportLayout } from "~/models/export-layout.server";
import { listStorages } from "~/models/lookup.server";
import { canEdit } from "~/models/measurement-kind.server";
import { canEditMixedStackReports, listMixedStackReports } from "~/models/mixed-stack-report.server";
import { listReports } from "~/models/report.server";
import { dashboardStorages, searchMeasurements } from "~/models/timber-dashboard.server";
import { listTimberLookups } from "~/models/timber-lookups.server";
import type { AppLoader } from "~/routes/_app+/_layout";
import { requireAppUser } from "~/utils/auth.server";
import { readDashboardQuery } from "~/utils/dashboard-query.server";
import { db } from "~/utils/db.server";
import { i18nServer } from "~/utils/i18n.server";
import { formatsFor } from "~/utils/use-format";
import { useRememberMeasurementMode } from "~/utils/use-measurement-mode";
import { useRealtime } from "~/utils/use-realtime";
import { handleDashboardAction } from "./_index.server";

export const handle = {
  i18n: ["timber", "measurements", "lookups", "exports", "public", "inventories", "mixed-stack", "reports"],
};

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: leafletCss },
  { rel: "stylesheet", href: clusterCss },
  { rel: "stylesheet", href: clusterDefaultCss },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  const url = new URL(request.url);
  const { filter, values, filterErrors, range, ranges, openId, page } = readDashboardQuery(url, ctx.user.time_zone);
  const withMixedStack = ctx.features.includes("mixed_stack_reports") && canEditMixedStackReports(ctx);
  const withReports = ctx.features.includes("reports") && ctx.isAdmin;
  const withLayout = ctx.features.includes("custom_export_layouts");
  const [storages, lookups, allStorages, mixedStackReports, reports, customLayout] = await Promise.all([
    dashboardStorages(db(), ctx, filter),
    listTimberLookups(db(), ctx, await i18nServer.getFixedT(ctx.user.locale, "lookups")),
    listStorages(db(), ctx),
    withMixedStack ? listMixedStackReports(db(), ctx) : [],
    withReports ? listReports(db(), ctx) : [],
    withLayout ? getExportLayout(db(), ctx, "dashboard") : null,
  ]);
  const openStorage = openId ? storages.find((s) => s.id === openId) : undefined;
  const expanded = openStorage
    ? await searchMeasurements(db(), ctx, { storageId: openStorage.id, filter, page, perPage: 5 })
    : null;
  return json({
    organizationId: ctx.organizationId,
    recentMode: ctx.user.recent_measurement_mode,
    unit: ctx.user.volume_unit,
    precision: ctx.user.rounding_precision,
    locale: ctx.user.locale,
    timeZone: ctx.user.time_zone,
    isAdmin: ctx.isAdmin,
    // The organisation's own layout of the dashboard export (feature custom_export_layouts).
    customLayout: customLayout !== null,
    origin: url.origin,
    range,
    ranges,
    values,
    filterErrors,
    storages: storages.map((s) => ({ ...s, canEdit: canEdit(ctx, s) })),
    allStorages: allStorages.map((s) => ({ id: s.id, name: s.name })),
    mixedStackReports: mixedStackReports.map((r) => ({ id: r.id, name: r.name })),
    // Reports measurements can be added to (the organisation's own, not confirmed); null: no reports here.
    reports: withReports
      ? reports.filter((r) => r.side === "owner" && !r.confirmed).map((r) => ({ id: r.id, name: r.name }))
      : null,
    expanded:
      expanded && openStorage
        ? {
            storageId: openStorage.id,
            page,
            totalPages: expanded.meta.total_pages,
            totalCount: expanded.meta.total_count,
            measurements: expanded.measurements,
          }
        : null,
    lookups: {
      storages: allStorages.map((s) => ({ id: s.id, name: s.name })),
      woodTypes: lookups.woodTypes.filter((w) => !w.archived),
      woodQualities: lookups.woodQualities.filter((w) => !w.archived),
      assortments: lookups.assortments.filter((a) => !a.archived).map((a) => ({ id: a.id, name: a.name })),
      devices: lookups.devices,
      customFields: lookups.customFields.filter((f) => f.searchable && !f.archived),
    },
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireAppUser(request);
  return handleDashboardAction(request, ctx);
}

export default function TimberDashboard() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation(["timber", "lookups", "exports"]);
  const appData = useRouteLoaderData<AppLoader>("routes/_app+/_layout");
  const revalidator = useRevalidator();
  useRememberMeasurementMode("timber", data.recentMode);
  const hasFilterErrors = Object.keys(data.filterErrors).length > 0;
  // A worker finished a photo: load again so its thumbnail appears.
  useRealtime(`organization:${data.organizationId}`, "measurement-photo-processed", () => revalidator.revalidate());

  const f = formatsFor({ locale: data.locale, timeZone: data.timeZone, precision: data.precision, unit: data.unit });
  const locale = f.locale;
  const fmtVolume = (v: number) => f.volume(v);
  const monthFormat = new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: data.timeZone });
  const hrefWith = useHrefWith();
  const filterQuery = new URLSearchParams(Object.entries(data.values)).toString();
  const totalLogs = data.storages.reduce((s, x) => s + x.logs_count, 0);
  const totalVolume = data.storages.reduce((s, x) => s + x.volume, 0);

  return (
    <div className="page timber-dashboard">
      <div className="page-header">
        <h1 className="page-title">{t("title")}</h1>
        <div className="page-actions">
          <ExportButton
            kind="excel"
            reportType="dashboard_excel"
            fields={data.values}
            label={t("exports:button.dashboardExcel")}
          />
          {data.customLayout ? (
            <ExportButton
              kind="excel"
              reportType="custom_dashboard_excel"
              fields={data.values}
              label={t("exports:layouts.button")}
            />
          ) : null}
          {appData?.features.includes("precise_log_by_log_excel") ? (
            <ExportButton
              kind="excel"
              reportType="precise_log_by_log_excel"
              fields={data.values}
              label={t("exports:button.preciseLogByLog")}
            />
          ) : null}
          <Link className="btn" to="/measurements/timber/deleted">
            {t("deleted.link")}
          </Link>
          {data.isAdmin ? (
            <Link className="btn btn-primary" to="/storages/new">
              {t("newStorage")}
            </Link>
          ) : null}
        </div>
      </div>
      <QuickRanges range={data.range} ranges={data.ranges} />
      {/* A details element: the panel toggles with or without JavaScript. */}
      <details className="filters-toggle" open={hasFilterErrors || undefined} data-testid="filters">
        <summary className="btn" data-testid="toggle-filters">
          {t("filters.toggle")}
        </summary>
        <FilterPanel values={data.values} errors={data.filterErrors} lookups={data.lookups} />
      </details>
      {data.storages.length === 0 ? (
        <EmptyState title={t("empty.title")} text={t("empty.text")}>
          {data.isAdmin ? (
            <Link className="btn btn-primary" to="/storages/new">
              {t("newStorage")}
            </Link>
          ) : null}
        </EmptyState>
      ) : (
        <div className="timber-layout">
          <section aria-label={t("table.label")}>
            <p className="muted summary-line" data-testid="dashboard-summary">
              {t("summary", {
                storages: t("storagesCount", { count: data.storages.length }),
                logs: t("logsCount", { count: totalLogs }),
                volume: fmtVolume(totalVolume),
              })}
            </p>
            <StoragesTable
              storages={data.storages}
              expanded={data.expanded}
              hrefWith={hrefWith}
              formatVolume={fmtVolume}
              formatDate={(iso) => f.dateTime(iso)}
              monthLabel={(iso) => monthFormat.format(new Date(iso))}
              allStorages={data.allStorages}
              isAdmin={data.isAdmin}
              origin={data.origin}
              inventories={appData?.features.includes("inventories") ?? false}
              woodYard={{
                log: appData?.features.includes("wood_yard_log_excel") ?? false,
                summary: appData?.features.includes("wood_yard_summary_excel") ?? false,
              }}
              mixedStackReports={data.mixedStackReports}
              reports={data.reports}
            />
          </section>
          <MapPanel storages={data.storages} filterQuery={filterQuery} />
        </div>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
