import { json, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import leafletCss from "leaflet/dist/leaflet.css";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ExportButton } from "~/components/exports/export-button";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { LiveTruckMap } from "~/components/trucks/live-truck-map";
import { EmptyState } from "~/components/ui/empty-state";
import { activeRoutes } from "~/models/truck-route.server";
import {
  searchTruckDiameterMeasurements,
  searchTruckMeasurements,
  truckDashboardStorages,
} from "~/models/truck.server";
import { fieldErrors } from "~/utils/api.server";
import { requireAppUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { measurementTypeName } from "~/utils/lookup-name";
import { pageParam } from "~/utils/schemas/limits";
import { TruckDashboardFilterSchema, type TruckDashboardFilter } from "~/utils/schemas/truck";
import { formatsFor } from "~/utils/use-format";
import { useRememberMeasurementMode } from "~/utils/use-measurement-mode";

// The truck dashboard: the storages with their truck measurements' count, loads and volume (plate
// filter and the two exclusive "only" checkboxes), each row opening its truck measurements and its
// truck-diameter measurements 5 per page each ("only truck" shows the first, "only truck-diameter"
// the second, neither both), and with feature truck_detection the live truck map. Everything is a link or a GET form,
// so it works without JavaScript; the live map itself needs it and lists the trucks as a table.

export const handle = { i18n: ["trucks", "timber", "lookups", "exports"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: leafletCss }];

const FILTER_KEYS = ["license_plate", "truck_measurements_only", "truck_diameter_measurements_only"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  const url = new URL(request.url);
  const values: Record<string, string> = {};
  for (const k of FILTER_KEYS) {
    const v = url.searchParams.get(k);
    if (v) values[k] = v;
  }
  const parsed = TruckDashboardFilterSchema.safeParse(values);
  const filter: TruckDashboardFilter = parsed.success ? parsed.data : {};
  const liveAllowed = ctx.features.includes("truck_detection");
  const live = liveAllowed && url.searchParams.get("live") === "1";
  const openId = Number(url.searchParams.get("open")) || null;
  const page = pageParam(url.searchParams.get("page"));
  const diameterPage = pageParam(url.searchParams.get("dpage"));
  const [storages, routes] = await Promise.all([
    truckDashboardStorages(db(), ctx, filter),
    live ? activeRoutes(db(), ctx) : Promise.resolve(null),
  ]);
  const open = openId ? storages.find((s) => s.id === openId) : undefined;
  const [expanded, expandedDiameter] = await Promise.all([
    open && open.truck_count > 0
      ? searchTruckMeasurements(db(), ctx, { storageId: open.id, licensePlate: filter.license_plate, page })
      : null,
    open && open.diameter_count > 0
      ? searchTruckDiameterMeasurements(db(), ctx, {
          storageId: open.id,
          licensePlate: filter.license_plate,
          page: diameterPage,
        })
      : null,
  ]);
  return json({
    organizationId: ctx.organizationId,
    recentMode: ctx.user.recent_measurement_mode,
    isAdmin: ctx.isAdmin,
    liveAllowed,
    palmako: ctx.features.includes("palmako_excel"),
    live,
    routes,
    values,
    filterErrors: parsed.success ? {} : fieldErrors(parsed.error),
    storages,
    openId: open?.id ?? null,
    expanded: expanded && open ? { storageId: open.id, page, ...expanded } : null,
    expandedDiameter: expandedDiameter && open ? { page: diameterPage, ...expandedDiameter } : null,
    // A truck-diameter measurement's own screen is the shipments detail, only for flagged organisations.
    cmpc: ctx.organization.cmpc_enabled,
    fmt: {
      locale: ctx.user.locale,
      timeZone: ctx.user.time_zone,
      precision: ctx.user.rounding_precision,
      unit: ctx.user.volume_unit,
    },
  });
}

export default function TruckDashboard() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation(["trucks", "timber", "lookups"]);
  const location = useLocation();
  const navigation = useNavigation();
  useRememberMeasurementMode("truck", data.recentMode);
  const f = formatsFor(data.fmt);
  const [only, setOnly] = useState<"truck" | "diameter" | null>(
    data.values.truck_measurements_only ? "truck" : data.values.truck_diameter_measurements_only ? "diameter" : null,
  );
  const hrefWith = (changes: Record<string, string | null>) => {
    const p = new URLSearchParams(location.search);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) p.delete(k);
      else p.set(k, v);
    }
    return `?${p}`;
  };
  const hasErrors = Object.keys(data.filterErrors).length > 0;
  const withTrucks = data.storages.filter((s) => s.measurements_count > 0);
  const totalVolume = data.storages.reduce((s, x) => s + x.volume, 0);
  const totalCount = data.storages.reduce((s, x) => s + x.truck_count, 0);

  return (
    <div
      className="page truck-dashboard"
      aria-busy={navigation.state === "loading" || undefined}
      data-testid="truck-dashboard"
    >
      <div className="page-header">
        <h1 className="page-title">{t("title")}</h1>
        <div className="page-actions">
          <ExportButton
            kind="excel"
            reportType="truck_dashboard_excel"
            fields={hasErrors ? {} : data.values}
            label={t("export.excel")}
          />
          {data.palmako ? (
            <ExportButton
              kind="excel"
              reportType="palmako_excel"
              fields={hasErrors ? {} : data.values}
              label={t("export.palmako")}
            />
          ) : null}
          {data.liveAllowed ? (
            <Link
              className={`btn${data.live ? " active" : ""}`}
              to={hrefWith({ live: data.live ? null : "1" })}
              aria-pressed={data.live}
              data-testid="toggle-live-map"
            >
              {data.live ? t("live.hide") : t("live.show")}
            </Link>
          ) : null}
          {data.isAdmin ? (
            <Link className="btn btn-primary" to="/storages/new">
              {t("newStorage")}
            </Link>
          ) : null}
        </div>
      </div>
      <details
        className="filters-toggle"
        open={hasErrors || Boolean(data.values.license_plate) || undefined}
        data-testid="filters"
      >
        <summary className="btn" data-testid="toggle-filters">
          {t("filters.toggle")}
        </summary>
        <Form method="get" className="card filter-panel" data-testid="truck-filters">
          {data.live ? <input type="hidden" name="live" value="1" /> : null}
          <label className="field">
            <span className="field-label">{t("filters.plate")}</span>
            <input
              name="license_plate"
              defaultValue={data.values.license_plate ?? ""}
              maxLength={32}
              aria-invalid={data.filterErrors.license_plate ? true : undefined}
            />
            {data.filterErrors.license_plate ? (
              <span className="field-error">{t(data.filterErrors.license_plate[0])}</span>
            ) : null}
          </label>
          <label className="checkbox">
            <input
              type="checkbox"
              name="truck_measurements_only"
              value="true"
              checked={only === "truck"}
              onChange={(e) => setOnly(e.target.checked ? "truck" : null)}
              data-testid="only-truck"
            />
            {t("filters.truckOnly")}
          </label>
          <label className="checkbox">
            <input
              type="checkbox"
              name="truck_diameter_measurements_only"
              value="true"
              checked={only === "diameter"}
              onChange={(e) => setOnly(e.target.checked ? "diameter" : null)}
              data-testid="only-truck-diameter"
            />
            {t("filters.truckDiameterOnly")}
          </label>
          {data.filterErrors.truck_diameter_measurements_only ? (
            <p className="field-error" role="alert">
              {t(data.filterErrors.truck_diameter_measurements_only[0])}
            </p>
          ) : null}
          <div className="form-actions">
            <button type="submit" className="btn btn-primary">
              {t("filters.apply")}
            </button>
            <Link className="btn" to={data.live ? "?live=1" : "?"}>
              {t("filters.clear")}
            </Link>
          </div>
        </Form>
      </details>
      {data.live && data.routes ? (
        <LiveTruckMap
          organizationId={data.organizationId}
          routes={data.routes}
          formatCoordinate={(v) => f.coordinate(v, 5)}
          formatDateTime={(v) => (v ? f.dateTime(v) : "")}
        />
      ) : null}
      {data.storages.length === 0 ? (
        <EmptyState title={t("empty.title")} text={t("empty.noStorages")} testId="trucks-empty">
          {data.isAdmin ? (
            <Link className="btn btn-primary" to="/storages/new">
              {t("newStorage")}
            </Link>
          ) : null}
        </EmptyState>
      ) : (
        <section aria-label={t("table.label")}>
          <p className="muted summary-line" data-testid="truck-summary">
            {t("summary", { total: f.count(totalCount), volume: f.volume(totalVolume) })}
          </p>
          {withTrucks.length === 0 ? (
            <p className="muted" data-testid="trucks-none">
              {t("empty.noMeasurements")}
            </p>
          ) : null}
          <div className="table-wrap">
            <table className="table storages-table" data-testid="truck-storages">
              <thead>
                <tr>
                  <th scope="col">{t("table.storage")}</th>
                  <th scope="col" className="num">
                    {t("table.measurements")}
                  </th>
                  <th scope="col" className="num">
                    {t("table.loads")}
                  </th>
                  <th scope="col" className="num">
                    {t("table.logs")}
                  </th>
                  <th scope="col" className="num">
                    {t("table.volume")}
                  </th>
                  <th scope="col" className="num">
                    {t("table.diameterVolume")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.storages.map((s) => {
                  const isOpen = data.openId === s.id;
                  return [
                    <tr key={s.id} data-testid={`truck-storage-${s.id}`}>
                      <th scope="row">
                        {s.measurements_count > 0 ? (
                          <Link
                            to={hrefWith({ open: isOpen ? null : String(s.id), page: null, dpage: null })}
                            aria-expanded={isOpen}
                            data-testid={`expand-${s.id}`}
                          >
                            {isOpen ? "▾" : "▸"} {s.name}
                          </Link>
                        ) : (
                          <span className="expand-disabled">{s.name}</span>
                        )}
                      </th>
                      <td className="num">{f.count(s.measurements_count)}</td>
                      <td className="num">{f.count(s.load_count)}</td>
                      <td className="num">{f.count(s.logs_count)}</td>
                      <td className="num">{f.volume(s.volume)}</td>
                      <td className="num">{f.volume(s.diameter_volume)}</td>
                    </tr>,
                    isOpen && (data.expanded || data.expandedDiameter) ? (
                      <tr key={`${s.id}-detail`} className="row-detail">
                        <td colSpan={6}>
                          {!data.expanded ? null : data.expanded.measurements.length === 0 ? (
                            <p className="muted">{t("empty.noMeasurements")}</p>
                          ) : (
                            <table className="table" data-testid="truck-measurements">
                              <thead>
                                <tr>
                                  <th scope="col">{t("list.measurement")}</th>
                                  <th scope="col">{t("list.plate")}</th>
                                  <th scope="col">{t("list.takenAt")}</th>
                                  <th scope="col">{t("list.type")}</th>
                                  <th scope="col" className="num">
                                    {t("table.loads")}
                                  </th>
                                  <th scope="col" className="num">
                                    {t("table.volume")}
                                  </th>
                                </tr>
                              </thead>
                              <tbody>
                                {data.expanded.measurements.map((m) => (
                                  <tr key={m.id} data-testid={`truck-measurement-${m.id}`}>
                                    <td>
                                      <Link to={`/measurements/truck/${m.id}`}>{t("measurement", { id: m.id })}</Link>
                                    </td>
                                    <td>{m.truck?.license_plate ?? "–"}</td>
                                    <td>{f.dateTime(m.taken_at)}</td>
                                    <td>{measurementTypeName(t, m.measurement_type_id)}</td>
                                    <td className="num">{f.count(m.load_count)}</td>
                                    <td className="num">{f.volume(m.volume)}</td>
                                  </tr>
                                ))}
                              </tbody>
                            </table>
                          )}
                          {data.expanded && data.expanded.meta.total_pages > 1 ? (
                            <nav className="pager" aria-label={t("list.pages")}>
                              {data.expanded.page > 1 ? (
                                <Link className="btn btn-small" to={hrefWith({ page: String(data.expanded.page - 1) })}>
                                  {t("list.previous")}
                                </Link>
                              ) : null}
                              <span className="muted" data-testid="truck-page">
                                {t("list.page", { page: data.expanded.page, pages: data.expanded.meta.total_pages })}
                              </span>
                              {data.expanded.page < data.expanded.meta.total_pages ? (
                                <Link
                                  className="btn btn-small"
                                  to={hrefWith({ page: String(data.expanded.page + 1) })}
                                  data-testid="next-page"
                                >
                                  {t("list.next")}
                                </Link>
                              ) : null}
                            </nav>
                          ) : null}
                          {data.expandedDiameter ? (
                            <DiameterList
                              list={data.expandedDiameter}
                              cmpc={data.cmpc}
                              pageHref={(p) => hrefWith({ dpage: String(p) })}
                              formatDateTime={(v) => f.dateTime(v)}
                              formatVolume={(v) => f.volume(v)}
                              formatCount={(v) => f.count(v)}
                            />
                          ) : null}
                        </td>
                      </tr>
                    ) : null,
                  ];
                })}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </div>
  );
}

type DiameterPage = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["expandedDiameter"]>;

/** The expanded row's truck-diameter measurements, 5 per page (links, no JavaScript needed). */
function DiameterList({
  list,
  cmpc,
  pageHref,
  formatDateTime,
  formatVolume,
  formatCount,
}: {
  list: DiameterPage;
  cmpc: boolean;
  pageHref: (page: number) => string;
  formatDateTime: (v: string) => string;
  formatVolume: (v: number) => string;
  formatCount: (v: number) => string;
}) {
  const { t } = useTranslation(["trucks", "lookups"]);
  return (
    <section aria-label={t("diameter.title")} data-testid="truck-diameter-list">
      <h3 className="section-title">{t("diameter.title")}</h3>
      <table className="table" data-testid="truck-diameter-measurements">
        <thead>
          <tr>
            <th scope="col">{t("list.measurement")}</th>
            <th scope="col">{t("diameter.trailerPlate")}</th>
            <th scope="col">{t("detail.shipment")}</th>
            <th scope="col">{t("list.takenAt")}</th>
            <th scope="col">{t("list.type")}</th>
            <th scope="col" className="num">
              {t("table.logs")}
            </th>
            <th scope="col" className="num">
              {t("table.volume")}
            </th>
          </tr>
        </thead>
        <tbody>
          {list.measurements.map((m) => (
            <tr key={m.id} data-testid={`truck-diameter-measurement-${m.id}`}>
              <td>
                {cmpc ? (
                  <Link to={`/measurements/cmpc/truck_diameter/${m.id}`}>
                    {t("diameter.measurement", { id: m.id })}
                  </Link>
                ) : (
                  t("diameter.measurement", { id: m.id })
                )}
              </td>
              <td>{m.trailer_license_plate ?? "–"}</td>
              <td>{m.shipment_number ?? "–"}</td>
              <td>{formatDateTime(m.taken_at)}</td>
              <td>{measurementTypeName(t, m.measurement_type_id)}</td>
              <td className="num">{formatCount(m.logs_count)}</td>
              <td className="num">{formatVolume(m.volume)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.meta.total_pages > 1 ? (
        <nav className="pager" aria-label={t("list.pages")}>
          {list.page > 1 ? (
            <Link className="btn btn-small" to={pageHref(list.page - 1)}>
              {t("list.previous")}
            </Link>
          ) : null}
          <span className="muted" data-testid="truck-diameter-page">
            {t("list.page", { page: list.page, pages: list.meta.total_pages })}
          </span>
          {list.page < list.meta.total_pages ? (
            <Link className="btn btn-small" to={pageHref(list.page + 1)} data-testid="next-diameter-page">
              {t("list.next")}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
