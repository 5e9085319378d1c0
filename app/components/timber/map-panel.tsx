import { useNavigate } from "@remix-run/react";
import { lazy, Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { showToast } from "~/components/ui/toaster";
import type { MapMeasurement, MapStorage } from "./timber-map.client";

const TimberMap = lazy(() => import("./timber-map.client"));

/**
 * The map card: storages or measurements, switched by the user. The map needs JavaScript (the
 * card says so without it); measurement markers come from GET /measurements/markers/storage/{id}.
 */
export function MapPanel({ storages, filterQuery }: { storages: MapStorage[]; filterQuery: string }) {
  const { t } = useTranslation("timber");
  const navigate = useNavigate();
  const [mounted, setMounted] = useState(false);
  const [view, setView] = useState<"storages" | "measurements">("storages");
  const [measurements, setMeasurements] = useState<MapMeasurement[] | null>(null);
  const [loading, setLoading] = useState(false);
  useEffect(() => setMounted(true), []);

  const withMeasurements = storages.filter((s) => s.measurements_count > 0);
  const key = `${filterQuery}|${withMeasurements.map((s) => s.id).join(",")}`;
  useEffect(() => {
    if (view !== "measurements") return;
    let cancelled = false;
    setLoading(true);
    (async () => {
      const all: MapMeasurement[] = [];
      // A few at a time: hundreds of storages must not open hundreds of connections at once.
      for (let i = 0; i < withMeasurements.length; i += 6) {
        const batch = withMeasurements.slice(i, i + 6);
        const results = await Promise.all(
          batch.map((s) =>
            fetch(`/api/web_app/measurements/markers/storage/${s.id}?${filterQuery}`, {
              headers: { Accept: "application/json" },
            })
              .then((r) => (r.ok ? r.json() : { items: [] }))
              .then((d: { items: Array<{ id: number; latitude: number; longitude: number }> }) =>
                d.items.map((m) => ({ ...m, storageName: s.name })),
              ),
          ),
        );
        for (const r of results) all.push(...r);
      }
      if (!cancelled) {
        setMeasurements(all);
        setLoading(false);
      }
    })().catch(() => {
      if (!cancelled) setLoading(false);
    });
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- key stands for the filter query: refetch when the view or the filters change
  }, [view, key]);

  async function openStorage(storage: MapStorage) {
    const r = await fetch(`/api/web_app/measurements/markers/storage/${storage.id}?${filterQuery}`, {
      headers: { Accept: "application/json" },
    });
    const data = r.ok ? ((await r.json()) as { items: Array<{ id: number }> }) : { items: [] };
    if (data.items.length === 0) showToast({ type: "info", key: "timber:map.noLocated" });
    else navigate(`/measurement/${data.items[0].id}`);
  }

  return (
    <section className="card timber-map" aria-label={t("map.title")} data-testid="timber-map">
      <div className="card-header">
        <h2 className="card-title">{t("map.title")}</h2>
        <div className="segmented" role="group" aria-label={t("map.view")}>
          <button
            type="button"
            className={`btn btn-small${view === "storages" ? " active" : ""}`}
            aria-pressed={view === "storages"}
            onClick={() => setView("storages")}
          >
            {t("map.storages")}
          </button>
          <button
            type="button"
            className={`btn btn-small${view === "measurements" ? " active" : ""}`}
            aria-pressed={view === "measurements"}
            onClick={() => setView("measurements")}
            data-testid="map-view-measurements"
          >
            {t("map.measurements")}
          </button>
        </div>
      </div>
      {mounted ? (
        <Suspense fallback={<div className="timber-map-canvas map-loading">{t("map.loading")}</div>}>
          <TimberMap
            view={view}
            storages={storages}
            measurements={measurements ?? []}
            onStorageClick={openStorage}
            onMeasurementClick={(id) => navigate(`/measurement/${id}`)}
            labels={{ measurement: (id) => t("measurement", { id }) }}
          />
          {view === "measurements" && loading ? <p className="muted">{t("map.loading")}</p> : null}
          {view === "measurements" && !loading && measurements?.length === 0 ? (
            <p className="muted">{t("map.noCoordinates")}</p>
          ) : null}
        </Suspense>
      ) : (
        <div className="timber-map-canvas map-loading">
          <noscript>{t("map.needsJs")}</noscript>
        </div>
      )}
    </section>
  );
}
