import { lazy, Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

const TruckMap = lazy(() => import("./truck-map.client"));

export interface DetailRoute {
  id: number;
  started_at: string;
  finished_at: string | null;
  path: Array<[number, number]>;
}

/**
 * The measurement detail's map of its routes: each route's path as a polyline with start and end
 * markers; a list of the routes beside it (also without JavaScript, which the map needs).
 */
export function RouteMap({ routes, formatDateTime }: { routes: DetailRoute[]; formatDateTime: (v: string) => string }) {
  const { t } = useTranslation("trucks");
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const drawn = routes.filter((r) => r.path.length > 0);
  return (
    <section className="card" aria-label={t("routes.title")} data-testid="truck-routes">
      <h2 className="card-title">{t("routes.title")}</h2>
      {routes.length === 0 ? (
        <p className="muted" data-testid="no-routes">
          {t("routes.empty")}
        </p>
      ) : (
        <>
          {mounted && drawn.length ? (
            <Suspense fallback={<div className="truck-map-canvas map-loading">{t("live.loading")}</div>}>
              <TruckMap
                routes={drawn.map((r) => ({ id: r.id, label: String(r.id), last: null, path: r.path }))}
                selectedId={null}
                endpoints
              />
            </Suspense>
          ) : null}
          <noscript>
            <p className="muted">{t("live.needsJs")}</p>
          </noscript>
          <ul className="route-list">
            {routes.map((r) => (
              <li key={r.id} data-testid={`route-${r.id}`}>
                {t("routes.item", {
                  start: formatDateTime(r.started_at),
                  end: r.finished_at ? formatDateTime(r.finished_at) : t("routes.underway"),
                  points: r.path.length,
                })}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
