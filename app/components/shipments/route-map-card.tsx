import { lazy, Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

const ShipmentMap = lazy(() => import("./shipment-map.client"));

/** The spec's route map constants: rendered 2 s after the row opens, 180 px high (zoom 8 in the map). */
export const ROUTE_MAP_DELAY_MS = 2000;
export const ROUTE_MAP_HEIGHT_PX = 180;

export interface ShipmentRoute {
  id: number;
  started_at: string;
  finished_at: string | null;
  checkpoints: Array<{ latitude: number; longitude: number }>;
}

/**
 * The expanded shipment's route map card: the map (after the spec's 2 s delay, once the row has
 * opened) and the routes as a list, which is all a page without JavaScript shows.
 */
export function RouteMapCard({
  routes,
  formatDateTime,
}: {
  routes: ShipmentRoute[];
  formatDateTime: (v: string) => string;
}) {
  const { t } = useTranslation("shipments");
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setReady(true), ROUTE_MAP_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  const paths = routes
    .map((r) => r.checkpoints.map((c) => [c.latitude, c.longitude] as [number, number]))
    .filter((p) => p.length > 0);
  return (
    <section className="card shipment-route-card" aria-label={t("route.title")} data-testid="shipment-route-card">
      <h3 className="card-title">{t("route.title")}</h3>
      {paths.length === 0 ? (
        <p className="muted" data-testid="shipment-no-route">
          {t("route.none")}
        </p>
      ) : (
        <>
          <div className="shipment-map-frame" style={{ height: ROUTE_MAP_HEIGHT_PX }}>
            {ready ? (
              <Suspense fallback={<p className="muted">{t("route.loading")}</p>}>
                <ShipmentMap paths={paths} />
              </Suspense>
            ) : (
              <p className="muted map-loading" data-testid="shipment-map-pending">
                {t("route.loading")}
              </p>
            )}
          </div>
          <noscript>
            <p className="muted">{t("route.needsJs")}</p>
          </noscript>
        </>
      )}
      <ul className="route-list">
        {routes.map((r) => (
          <li key={r.id} data-testid={`shipment-route-${r.id}`}>
            {t("route.item", {
              start: formatDateTime(r.started_at),
              end: r.finished_at ? formatDateTime(r.finished_at) : t("route.underway"),
              points: r.checkpoints.length,
            })}
          </li>
        ))}
      </ul>
    </section>
  );
}
