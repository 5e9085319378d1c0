import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useLocation, useRevalidator, useRouteLoaderData } from "@remix-run/react";
import leafletCss from "leaflet/dist/leaflet.css";
import { useTranslation } from "react-i18next";
import clusterCss from "react-leaflet-cluster/dist/assets/MarkerCluster.css";
import clusterDefaultCss from "react-leaflet-cluster/dist/assets/MarkerCluster.Default.css";
import { ExportButton } from "~/components/exports/export-button";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { FilterPanel } from "~/components/timber/filter-panel";
import { MapPanel } from "~/components/timber/map-panel";
import { StoragesTable } from "~/components/timber/storages-table";
import { EmptyState } from "~/components/ui/empty-state";
import { listStorages } from "~/models/lookup.server";
import { canEdit } from "~/models/measurement-kind.server";
import { dashboardStorages, searchMeasurements } from "~/models/timber-dashboard.server";
import { listTimberLookups } from "~/models/timber-lookups.server";
import type { AppLoader } from "~/routes/_app+/_layout";
import { fieldErrors } from "~/utils/api.server";
import { requireAppUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { i18nServer } from "~/utils/i18n.server";
import { pageParam } from "~/utils/schemas/limits";
import { dashboardFilterSchema, filterParamsFromSearch } from "~/utils/schemas/timber";
import { DEFAULT_RANGE, matchingRange, QUICK_RANGES, quickRangeDates } from "~/utils/timber-dates";
import { formatsFor } from "~/utils/use-format";
import { useRememberMeasurementMode } from "~/utils/use-measurement-mode";
import { useRealtime } from "~/utils/use-realtime";
import { handleDashboardAction } from "./_index.server";

export const handle = { i18n: ["timber", "measurements", "lookups", "exports", "public", "inventories"] };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: leafletCss },
  { rel: "stylesheet", href: clusterCss },
  { rel: "stylesheet", href: clusterDefaultCss },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  const url = new URL(request.url);
  const params = new URLSearchParams(url.searchParams);
  // First load: the last three months (the spec's default).
  if (!params.has("taken_at_start") && !params.has("taken_at_end")) {
    const d = quickRangeDates(DEFAULT_RANGE, ctx.user.time_zone);
    params.set("taken_at_start", d.start);
    params.set("taken_at_end", d.end);
  }
  const raw = filterParamsFromSearch(params);
  const parsed = dashboardFilterSchema(ctx.user.time_zone).safeParse(raw);
  const filter = parsed.success ? parsed.data : {};
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k === "custom_fields")
      for (const [ck, cv] of Object.entries(v as Record<string, string>)) values[`custom_fields[${ck}]`] = cv;
    else values[k] = String(v);
  }
  const openId = Number(url.searchParams.get("open")) || null;
  const page = pageParam(url.searchParams.get("page"));
  const [storages, lookups, allStorages] = await Promise.all([
    dashboardStorages(db(), ctx, filter),
    listTimberLookups(db(), ctx, await i18nServer.getFixedT(ctx.user.locale, "lookups")),
    listStorages(db(), ctx),
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
    origin: url.origin,
    range: matchingRange(values.taken_at_start, values.taken_at_end, ctx.user.time_zone),
    ranges: Object.fromEntries(QUICK_RANGES.map((r) => [r, quickRangeDates(r, ctx.user.time_zone)])),
    values,
    filterErrors: parsed.success ? {} : fieldErrors(parsed.error),
    storages: storages.map((s) => ({ ...s, canEdit: canEdit(ctx, s) })),
    allStorages: allStorages.map((s) => ({ id: s.id, name: s.name })),
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
  const location = useLocation();
  const revalidator = useRevalidator();
  useRememberMeasurementMode("timber", data.recentMode);
  const hasFilterErrors = Object.keys(data.filterErrors).length > 0;
  // A worker finished a photo: load again so its thumbnail appears.
  useRealtime(`organization:${data.organizationId}`, "measurement-photo-processed", () => revalidator.revalidate());

  const f = formatsFor({ locale: data.locale, timeZone: data.timeZone, precision: data.precision, unit: data.unit });
  const locale = f.locale;
  const fmtVolume = (v: number) => f.volume(v);
  const monthFormat = new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: data.timeZone });
  const hrefWith = (changes: Record<string, string | null>) => {
    const p = new URLSearchParams(location.search);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) p.delete(k);
      else p.set(k, v);
    }
    return `?${p}`;
  };
  const filterQuery = new URLSearchParams(Object.entries(data.values)).toString();
  const rangeHref = (r: string) => {
    const p = new URLSearchParams(location.search);
    p.set("taken_at_start", data.ranges[r].start);
    p.set("taken_at_end", data.ranges[r].end);
    p.delete("page");
    return `?${p}`;
  };
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
      <nav className="quick-ranges" aria-label={t("ranges.label")}>
        {QUICK_RANGES.map((r) => (
          <Link
            key={r}
            to={rangeHref(r)}
            className={`btn btn-small${data.range === r ? " active" : ""}`}
            aria-current={data.range === r ? "true" : undefined}
            data-testid={`range-${r}`}
          >
            {t(`ranges.${r}`)}
          </Link>
        ))}
      </nav>
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
