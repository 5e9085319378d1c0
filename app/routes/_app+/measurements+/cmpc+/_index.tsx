import { json, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import leafletCss from "leaflet/dist/leaflet.css";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { MeasurementCards } from "~/components/shipments/measurement-cards";
import { RouteMapCard } from "~/components/shipments/route-map-card";
import { EmptyState } from "~/components/ui/empty-state";
import { cmpcDashboard, cmpcSearch } from "~/models/shipment.server";
import { listTimberLookups } from "~/models/timber-lookups.server";
import { fieldErrors } from "~/utils/api.server";
import { requireAppUser } from "~/utils/auth.server";
import { requireCmpc } from "~/utils/cmpc.server";
import { db } from "~/utils/db.server";
import { i18nServer } from "~/utils/i18n.server";
import { cmpcFilterSchema, cmpcParams, type CmpcFilter } from "~/utils/schemas/shipment";
import { formatsFor } from "~/utils/use-format";
import { useRememberMeasurementMode } from "~/utils/use-measurement-mode";

// The shipments dashboard of a pulp mill (cmpc mode, flagged organisations only): the shipments
// with their route status and incoming and outgoing sides, a summary, filters, and pages with a
// window of up to 3 page numbers. A row opens (a link: no JavaScript needed) to its route map
// card and its measurement cards. docs/decisions/023-shipments.md.

export const handle = { i18n: ["shipments", "timber", "lookups"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: leafletCss }];

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  requireCmpc(ctx);
  const url = new URL(request.url);
  const values = cmpcParams(url.searchParams);
  const parsed = cmpcFilterSchema(ctx.user.time_zone).safeParse(values);
  const filter: CmpcFilter = parsed.success ? parsed.data : { page: 1, route_status: undefined };
  const openId = Number(url.searchParams.get("open")) || null;
  const [dashboard, lookups] = await Promise.all([
    cmpcDashboard(db(), ctx, filter),
    listTimberLookups(db(), ctx, await i18nServer.getFixedT(ctx.user.locale, "lookups")),
  ]);
  const open = openId ? dashboard.shipments.find((s) => s.id === openId) : undefined;
  const cards = open ? await cmpcSearch(db(), ctx, { shipmentId: open.id }) : null;
  return json({
    recentMode: ctx.user.recent_measurement_mode,
    values,
    filterErrors: parsed.success ? {} : fieldErrors(parsed.error),
    ...dashboard,
    openId: open?.id ?? null,
    cards,
    woodTypes: Object.fromEntries(lookups.woodTypes.map((w) => [w.id, w.name])),
    fmt: {
      locale: ctx.user.locale,
      timeZone: ctx.user.time_zone,
      precision: ctx.user.rounding_precision,
      unit: ctx.user.volume_unit,
    },
  });
}

export default function ShipmentsDashboard() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation(["shipments", "timber", "lookups"]);
  const location = useLocation();
  const navigation = useNavigation();
  useRememberMeasurementMode("cmpc", data.recentMode);
  const f = formatsFor(data.fmt);
  const hrefWith = (changes: Record<string, string | null>) => {
    const p = new URLSearchParams(location.search);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) p.delete(k);
      else p.set(k, v);
    }
    return `?${p}`;
  };
  const err = (name: string) =>
    data.filterErrors[name]?.length ? (
      <span className="field-error" data-testid={`filter-error-${name}`}>
        {t(data.filterErrors[name][0])}
      </span>
    ) : null;
  const hasFilters = ["shipment_number", "created_at_start", "created_at_end", "route_status"].some(
    (k) => data.values[k as keyof typeof data.values],
  );
  const p = data.pagination;
  const pageLink = (page: number | null, label: string, testId: string) =>
    page === null ? (
      <span className="btn btn-small disabled" aria-disabled="true" data-testid={testId}>
        {label}
      </span>
    ) : (
      <Link className="btn btn-small" to={hrefWith({ page: String(page), open: null })} data-testid={testId}>
        {label}
      </Link>
    );

  return (
    <div
      className="page shipments-dashboard"
      aria-busy={navigation.state === "loading" || undefined}
      data-testid="shipments-dashboard"
    >
      <div className="page-header">
        <h1 className="page-title">{t("title")}</h1>
      </div>
      <details
        className="filters-toggle"
        open={hasFilters || Object.keys(data.filterErrors).length > 0 || undefined}
        data-testid="filters"
      >
        <summary className="btn" data-testid="toggle-filters">
          {t("filters.toggle")}
        </summary>
        <Form method="get" className="card filter-panel" data-testid="shipment-filters">
          <label className="field">
            <span className="field-label">{t("filters.number")}</span>
            <input name="shipment_number" defaultValue={data.values.shipment_number ?? ""} maxLength={64} />
            {err("shipment_number")}
          </label>
          <label className="field">
            <span className="field-label">{t("filters.createdFrom")}</span>
            <input
              name="created_at_start"
              defaultValue={data.values.created_at_start ?? ""}
              placeholder="dd.mm.yyyy"
              maxLength={40}
              aria-invalid={data.filterErrors.created_at_start ? true : undefined}
            />
            {err("created_at_start")}
          </label>
          <label className="field">
            <span className="field-label">{t("filters.createdTo")}</span>
            <input
              name="created_at_end"
              defaultValue={data.values.created_at_end ?? ""}
              placeholder="dd.mm.yyyy"
              maxLength={40}
              aria-invalid={data.filterErrors.created_at_end ? true : undefined}
            />
            {err("created_at_end")}
          </label>
          <label className="field">
            <span className="field-label">{t("filters.routeStatus")}</span>
            <select name="route_status" defaultValue={data.values.route_status ?? ""}>
              <option value="">{t("filters.any")}</option>
              <option value="completed">{t("route.completedFilter")}</option>
              <option value="none">{t("route.noRoutes")}</option>
            </select>
            {err("route_status")}
          </label>
          <div className="form-actions">
            <button type="submit" className="btn btn-primary">
              {t("filters.apply")}
            </button>
            <Link className="btn" to="?">
              {t("filters.clear")}
            </Link>
          </div>
        </Form>
      </details>
      <p className="muted summary-line" data-testid="shipments-summary">
        {t("summary", { total: f.count(data.summary.shipments_count), volume: f.volume(data.summary.total_volume) })}
      </p>
      {data.shipments.length === 0 ? (
        <EmptyState
          title={t("empty.title")}
          text={t(hasFilters ? "empty.filtered" : "empty.text")}
          testId="shipments-empty"
        />
      ) : (
        <section aria-label={t("table.label")}>
          <div className="table-wrap">
            <table className="table shipments-table" data-testid="shipments-table">
              <thead>
                <tr>
                  <th scope="col">{t("table.number")}</th>
                  <th scope="col">{t("table.routeStatus")}</th>
                  <th scope="col">{t("table.created")}</th>
                  <th scope="col" className="num">
                    {t("table.incomingLogs")}
                  </th>
                  <th scope="col" className="num">
                    {t("table.incomingVolume")}
                  </th>
                  <th scope="col" className="num">
                    {t("table.outgoingLogs")}
                  </th>
                  <th scope="col" className="num">
                    {t("table.outgoingVolume")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.shipments.map((s) => {
                  const isOpen = data.openId === s.id;
                  return [
                    <tr key={s.id} data-testid={`shipment-${s.id}`}>
                      <th scope="row">
                        <Link
                          to={hrefWith({ open: isOpen ? null : String(s.id) })}
                          preventScrollReset
                          aria-expanded={isOpen}
                          data-testid={`expand-shipment-${s.id}`}
                        >
                          {isOpen ? "▾" : "▸"} {s.number}
                        </Link>
                      </th>
                      <td>
                        {s.route_count > 0 ? (
                          <span className="badge badge-success" data-testid={`route-badge-${s.id}`}>
                            {t("route.completed", { n: s.route_count })}
                          </span>
                        ) : (
                          <span className="badge" data-testid={`route-badge-${s.id}`}>
                            {t("route.noRoutes")}
                          </span>
                        )}
                      </td>
                      <td>{f.date(s.created_at)}</td>
                      <td className="num" data-testid={`incoming-logs-${s.id}`}>
                        {s.incoming_logs_count ? f.count(s.incoming_logs_count) : "–"}
                      </td>
                      <td className="num" data-testid={`incoming-volume-${s.id}`}>
                        {f.volume(s.incoming_volume)}
                      </td>
                      <td className="num" data-testid={`outgoing-logs-${s.id}`}>
                        {s.outgoing_logs_count ? f.count(s.outgoing_logs_count) : "–"}
                      </td>
                      <td className="num" data-testid={`outgoing-volume-${s.id}`}>
                        {f.volume(s.outgoing_volume)}
                      </td>
                    </tr>,
                    isOpen && data.cards ? (
                      <tr key={`${s.id}-detail`} className="row-detail">
                        <td colSpan={7}>
                          <div className="shipment-expanded" data-testid="shipment-expanded">
                            <RouteMapCard key={s.id} routes={s.truck_routes} formatDateTime={(v) => f.dateTime(v)} />
                            <MeasurementCards cards={data.cards} woodTypes={data.woodTypes} fmt={data.fmt} />
                          </div>
                        </td>
                      </tr>
                    ) : null,
                  ];
                })}
              </tbody>
            </table>
          </div>
          {data.meta.total_pages > 1 ? (
            <nav className="pagination" aria-label={t("pagination.label")} data-testid="shipments-pagination">
              {pageLink(p.first, t("pagination.first"), "page-first")}
              {pageLink(p.prev, t("pagination.previous"), "page-prev")}
              {p.pages.map((n) =>
                n === data.meta.page ? (
                  <span key={n} className="btn btn-small active" aria-current="page" data-testid={`page-${n}`}>
                    {n}
                  </span>
                ) : (
                  <Link
                    key={n}
                    className="btn btn-small"
                    to={hrefWith({ page: String(n), open: null })}
                    data-testid={`page-${n}`}
                  >
                    {n}
                  </Link>
                ),
              )}
              {pageLink(p.next, t("pagination.next"), "page-next")}
              {pageLink(p.last, t("pagination.last"), "page-last")}
            </nav>
          ) : null}
        </section>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
