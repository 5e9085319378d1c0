import { useRevalidator } from "@remix-run/react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { showToast } from "~/components/ui/toaster";
import { useRealtime } from "~/utils/use-realtime";
import type { MapRoute } from "./truck-map.client";

const TruckMap = lazy(() => import("./truck-map.client"));

export interface ActiveRoute {
  id: number;
  truck_measurement_id: number;
  started_at: string;
  license_plate: string | null;
  last_checkpoint: { latitude: number; longitude: number; recorded_at: string | null } | null;
}

type CheckpointEvent = {
  checkpoint: { id: number; truck_route_id: number; latitude: number; longitude: number; recorded_at: string };
};

type Live = ActiveRoute & { path?: Array<[number, number]> };

/**
 * The live truck map: the organisation's active routes with each truck's last position, moved by
 * every `checkpoint-created` event without a reload. Selecting a truck highlights it; "Show route"
 * draws its whole path (kept growing by the events); "Deselect" lets go. Beside the map, the same
 * trucks as a table. Without JavaScript only the table shows, with a note that the map needs it.
 */
export function LiveTruckMap({
  organizationId,
  routes: initial,
  formatCoordinate,
  formatDateTime,
}: {
  organizationId: number;
  routes: ActiveRoute[];
  formatCoordinate: (v: number | null | undefined) => string;
  formatDateTime: (v: string | null | undefined) => string;
}) {
  const { t } = useTranslation("trucks");
  const revalidator = useRevalidator();
  const [mounted, setMounted] = useState(false);
  const [routes, setRoutes] = useState<Live[]>(initial);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const knownIds = useRef(new Set(initial.map((r) => r.id)));
  knownIds.current = new Set(routes.map((r) => r.id));
  useEffect(() => setMounted(true), []);
  // New loader data (a route started or finished): keep the paths already fetched.
  useEffect(() => {
    setRoutes((current) => initial.map((r) => ({ ...r, path: current.find((c) => c.id === r.id)?.path })));
  }, [initial]);

  useRealtime(`organization:${organizationId}`, "checkpoint-created", (data) => {
    const c = (data as CheckpointEvent).checkpoint;
    // A route this page does not know yet started: load the list again.
    if (!knownIds.current.has(c.truck_route_id)) {
      if (revalidator.state === "idle") revalidator.revalidate();
      return;
    }
    setRoutes((current) =>
      current.map((r) => {
        if (r.id !== c.truck_route_id) return r;
        const newer =
          !r.last_checkpoint?.recorded_at || new Date(c.recorded_at) >= new Date(r.last_checkpoint.recorded_at);
        return {
          ...r,
          // A late, older checkpoint joins the path but does not move the truck back.
          last_checkpoint: newer
            ? { latitude: c.latitude, longitude: c.longitude, recorded_at: c.recorded_at }
            : r.last_checkpoint,
          path: r.path ? [...r.path, [c.latitude, c.longitude]] : r.path,
        };
      }),
    );
  });

  async function showPath(id: number) {
    const r = await fetch(`/api/web_app/truck_routes/${id}/checkpoints`, { headers: { Accept: "application/json" } });
    if (!r.ok) {
      showToast({ type: "error", key: "trucks:live.pathFailed" });
      return;
    }
    const { data } = (await r.json()) as { data: Array<{ latitude: number; longitude: number }> };
    setRoutes((current) =>
      current.map((x) => (x.id === id ? { ...x, path: data.map((p) => [p.latitude, p.longitude]) } : x)),
    );
  }

  const label = (r: Live) => r.license_plate ?? t("live.noPlate", { id: r.truck_measurement_id });
  const mapRoutes: MapRoute[] = routes.map((r) => ({
    id: r.id,
    label: label(r),
    last: r.last_checkpoint ? [r.last_checkpoint.latitude, r.last_checkpoint.longitude] : null,
    path: r.path,
  }));
  const selected = routes.find((r) => r.id === selectedId);

  return (
    <section className="card live-truck-map" aria-label={t("live.title")} data-testid="live-truck-map">
      <div className="card-header">
        <h2 className="card-title">{t("live.title")}</h2>
        {selected ? (
          <div className="segmented" role="group" aria-label={t("live.selected", { plate: label(selected) })}>
            <span className="muted" data-testid="selected-route">
              {t("live.selected", { plate: label(selected) })}
            </span>
            <button
              type="button"
              className="btn btn-small"
              onClick={() => void showPath(selected.id)}
              data-testid="show-route"
            >
              {t("live.showRoute")}
            </button>
            <button type="button" className="btn btn-small" onClick={() => setSelectedId(null)} data-testid="deselect">
              {t("live.deselect")}
            </button>
          </div>
        ) : null}
      </div>
      <noscript>
        <p className="alert alert-info" role="note" data-testid="live-needs-js">
          {t("live.needsJs")}
        </p>
      </noscript>
      {mounted ? (
        <Suspense fallback={<div className="truck-map-canvas map-loading">{t("live.loading")}</div>}>
          <TruckMap routes={mapRoutes} selectedId={selectedId} onSelect={setSelectedId} />
        </Suspense>
      ) : null}
      {routes.length === 0 ? (
        <p className="muted" data-testid="no-active-routes">
          {t("live.empty")}
        </p>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="active-routes">
            <thead>
              <tr>
                <th scope="col">{t("live.plate")}</th>
                <th scope="col">{t("live.started")}</th>
                <th scope="col">{t("live.position")}</th>
                <th scope="col">{t("live.lastSeen")}</th>
                <th scope="col">
                  <span className="sr-only">{t("live.select")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {routes.map((r) => (
                <tr
                  key={r.id}
                  data-testid={`active-route-${r.id}`}
                  aria-selected={r.id === selectedId || undefined}
                  className={r.id === selectedId ? "selected" : undefined}
                >
                  <td>
                    <a href={`/measurements/truck/${r.truck_measurement_id}`}>{label(r)}</a>
                  </td>
                  <td>{formatDateTime(r.started_at)}</td>
                  <td data-testid="route-position">
                    {r.last_checkpoint
                      ? `${formatCoordinate(r.last_checkpoint.latitude)}, ${formatCoordinate(r.last_checkpoint.longitude)}`
                      : t("live.noPosition")}
                  </td>
                  <td>{formatDateTime(r.last_checkpoint?.recorded_at)}</td>
                  <td>
                    {mounted ? (
                      <button
                        type="button"
                        className="btn btn-small"
                        onClick={() => setSelectedId(r.id)}
                        data-testid={`select-route-${r.id}`}
                      >
                        {t("live.select")}
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
