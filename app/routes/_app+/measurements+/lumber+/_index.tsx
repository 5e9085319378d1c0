import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ExportButton } from "~/components/exports/export-button";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { LumberStoragesTable } from "~/components/lumber/lumber-storages-table";
import { QuickRanges, useHrefWith } from "~/components/measurements/quick-ranges";
import { FilterPanel } from "~/components/timber/filter-panel";
import { EmptyState } from "~/components/ui/empty-state";
import { listStorages } from "~/models/lookup.server";
import {
  listLumberDashboardLookups,
  lumberDashboardStorages,
  searchLumberDashboard,
} from "~/models/lumber-dashboard.server";
import { canEdit } from "~/models/measurement-kind.server";
import { requireAppUser } from "~/utils/auth.server";
import { readDashboardQuery } from "~/utils/dashboard-query.server";
import { db } from "~/utils/db.server";
import { formatPlankLength, plankUnitOf } from "~/utils/plank-length";
import { formatsFor } from "~/utils/use-format";
import { useRememberMeasurementMode } from "~/utils/use-measurement-mode";
import { useRealtime } from "~/utils/use-realtime";
import { handleLumberDashboardAction } from "./_index.server";

// /measurements/lumber: the lumber dashboard. The timber dashboard's filter (the fields a
// lumber measurement has, lumber products among them) over storages with their plank counts
// and volume; a row expands to its lumber measurements, 5 per page, each linking to its
// detail page and deletable behind a confirmation. GET /dashboard_filter?lumber_measurements=true
// answers the same storages.

const NONE: Array<{ id: number; name: string }> = [];

export const handle = { i18n: ["lumber", "timber", "lookups", "exports"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  const url = new URL(request.url);
  const { filter, values, filterErrors, range, ranges, openId, page } = readDashboardQuery(url, ctx.user.time_zone);
  const hideEmpty = url.searchParams.get("hide_empty") === "1";
  const [storages, lookups, allStorages] = await Promise.all([
    lumberDashboardStorages(db(), ctx, filter),
    listLumberDashboardLookups(db(), ctx),
    listStorages(db(), ctx),
  ]);
  const openStorage = openId ? storages.find((s) => s.id === openId) : undefined;
  const expanded = openStorage
    ? await searchLumberDashboard(db(), ctx, { storageId: openStorage.id, filter, page })
    : null;
  const shown = hideEmpty ? storages.filter((s) => s.measurements_count > 0) : storages;
  return json({
    organizationId: ctx.organizationId,
    recentMode: ctx.user.recent_measurement_mode,
    unit: ctx.user.volume_unit,
    precision: ctx.user.rounding_precision,
    locale: ctx.user.locale,
    timeZone: ctx.user.time_zone,
    plankUnit: plankUnitOf(ctx.user.lumber_plank_unit),
    isAdmin: ctx.isAdmin,
    range,
    ranges,
    values,
    filterErrors,
    hideEmpty,
    hiddenCount: storages.length - shown.length,
    storages: shown.map((s) => ({
      id: s.id,
      name: s.name,
      storage_state_id: s.storage_state_id,
      planks_count: s.planks_count,
      volume: s.volume,
      measurements_count: s.measurements_count,
      is_default: s.is_default,
      canEdit: canEdit(ctx, s),
    })),
    expanded:
      expanded && openStorage
        ? {
            storageId: openStorage.id,
            page,
            totalPages: expanded.total_pages,
            totalCount: expanded.total_count,
            measurements: expanded.measurements,
          }
        : null,
    lookups: {
      storages: allStorages.map((s) => ({ id: s.id, name: s.name })),
      // Timber's own filters, not shown on the lumber panel.
      woodTypes: NONE,
      woodQualities: NONE,
      assortments: NONE,
      devices: lookups.devices,
      lumberProducts: lookups.lumberProducts,
      customFields: lookups.customFields,
    },
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireAppUser(request);
  return handleLumberDashboardAction(request, ctx);
}

export default function LumberDashboard() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation(["lumber", "timber", "exports"]);
  const revalidator = useRevalidator();
  const hrefWith = useHrefWith();
  useRememberMeasurementMode("lumber", data.recentMode);
  // A worker finished a photo: load again so its thumbnail appears.
  useRealtime(`organization:${data.organizationId}`, "measurement-photo-processed", () => revalidator.revalidate());
  const f = formatsFor({ locale: data.locale, timeZone: data.timeZone, precision: data.precision, unit: data.unit });
  const hasFilterErrors = Object.keys(data.filterErrors).length > 0;
  const totalPlanks = data.storages.reduce((s, x) => s + x.planks_count, 0);
  const totalVolume = data.storages.reduce((s, x) => s + x.volume, 0);
  const totalMeasurements = data.storages.reduce((s, x) => s + x.measurements_count, 0);
  const newStorage = data.isAdmin ? (
    <Link className="btn btn-primary" to="/storages/new">
      {t("timber:newStorage")}
    </Link>
  ) : null;

  return (
    <div className="page lumber-dashboard">
      <div className="page-header">
        <h1 className="page-title">{t("title")}</h1>
        <div className="page-actions">
          <ExportButton
            kind="excel"
            reportType="lumber_dashboard_excel"
            fields={data.values}
            label={t("exports:button.lumberDashboardExcel")}
          />
          <Link className="btn" to="/measurements/timber/deleted#lumber">
            {t("deletedLink")}
          </Link>
          {newStorage}
        </div>
      </div>
      <QuickRanges range={data.range} ranges={data.ranges} />
      {/* A details element: the panel toggles with or without JavaScript. */}
      <details className="filters-toggle" open={hasFilterErrors || undefined} data-testid="filters">
        <summary className="btn" data-testid="toggle-filters">
          {t("timber:filters.toggle")}
        </summary>
        <FilterPanel kind="lumber" values={data.values} errors={data.filterErrors} lookups={data.lookups} />
      </details>
      {data.storages.length === 0 && data.hiddenCount === 0 ? (
        <EmptyState title={t("empty.title")} text={t("empty.text")}>
          {newStorage}
        </EmptyState>
      ) : (
        <section aria-label={t("timber:table.label")}>
          <div className="summary-line">
            <p className="muted" data-testid="dashboard-summary">
              {t("summary", {
                storages: t("timber:storagesCount", { count: data.storages.length }),
                measurements: t("measurementsCount", { count: totalMeasurements }),
                planks: t("planksCount", { count: totalPlanks }),
                volume: f.volume(totalVolume),
              })}
            </p>
            <Link
              to={hrefWith({ hide_empty: data.hideEmpty ? null : "1", open: null, page: null })}
              className={`btn btn-small${data.hideEmpty ? " active" : ""}`}
              aria-pressed={data.hideEmpty}
              data-testid="toggle-empty"
            >
              {data.hideEmpty ? t("showEmpty", { count: data.hiddenCount }) : t("hideEmpty")}
            </Link>
          </div>
          {data.storages.length === 0 ? (
            <EmptyState title={t("empty.title")} text={t("empty.allHidden")} />
          ) : (
            <LumberStoragesTable
              storages={data.storages}
              expanded={data.expanded}
              hrefWith={hrefWith}
              formatVolume={(v) => f.volume(v)}
              formatPlank={(mm) => formatPlankLength(mm, data.plankUnit, f.locale)}
              isAdmin={data.isAdmin}
            />
          )}
        </section>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
