import L from "leaflet";
import { useEffect, useMemo, useState } from "react";
import { MapContainer, Marker, TileLayer, Tooltip, useMap } from "react-leaflet";
import MarkerClusterGroup from "react-leaflet-cluster";

// The dashboard map (browser only: Leaflet needs the DOM). Markers are CSS div icons, not image
// files, so they draw with no tile server and no network: offline the map shows markers on a
// blank background. Clustering stops at zoom 18; zoom never goes below 1 (the spec's constants).

export interface MapStorage {
  id: number;
  name: string;
  latitude: number | null;
  longitude: number | null;
  measurements_count: number;
}
export interface MapMeasurement {
  id: number;
  latitude: number;
  longitude: number;
  storageName: string;
}

const storageIcon = L.divIcon({
  className: "map-marker map-marker-storage",
  html: "<span></span>",
  iconSize: [22, 22],
  iconAnchor: [11, 11],
});
const measurementIcon = L.divIcon({
  className: "map-marker map-marker-measurement",
  html: "<span></span>",
  iconSize: [14, 14],
  iconAnchor: [7, 7],
});

function FitBounds({ points }: { points: Array<[number, number]> }) {
  const map = useMap();
  const key = points.map((p) => p.join(",")).join(";");
  useEffect(() => {
    if (points.length === 1) map.setView(points[0], 14);
    else if (points.length > 1) map.fitBounds(L.latLngBounds(points), { padding: [30, 30], maxZoom: 16 });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- key stands for the points: fit only when the set of points changes
  }, [key, map]);
  return null;
}

export default function TimberMap({
  view,
  storages,
  measurements,
  onStorageClick,
  onMeasurementClick,
  labels,
}: {
  view: "storages" | "measurements";
  storages: MapStorage[];
  measurements: MapMeasurement[];
  onStorageClick: (storage: MapStorage) => void;
  onMeasurementClick: (id: number) => void;
  labels: { measurement: (id: number) => string };
}) {
  const [tileUrl] = useState(() => window.ENV?.MAP_TILE_URL ?? "");
  const located = useMemo(() => storages.filter((s) => s.latitude !== null && s.longitude !== null), [storages]);
  const points: Array<[number, number]> =
    view === "storages"
      ? located.map((s) => [s.latitude!, s.longitude!])
      : measurements.map((m) => [m.latitude, m.longitude]);
  return (
    // maxZoom on the map itself: without a tile layer (MAP_TILE_URL=none) the cluster layer needs it.
    <MapContainer center={[58.6, 25.0]} zoom={5} minZoom={1} maxZoom={19} className="timber-map-canvas" worldCopyJump>
      {tileUrl ? <TileLayer url={tileUrl} attribution={window.ENV?.MAP_TILE_ATTRIBUTION ?? ""} /> : null}
      <FitBounds points={points} />
      <MarkerClusterGroup disableClusteringAtZoom={18} maxClusterRadius={80} chunkedLoading>
        {view === "storages"
          ? located.map((s) => (
              <Marker
                key={`s${s.id}`}
                position={[s.latitude!, s.longitude!]}
                icon={storageIcon}
                eventHandlers={{ click: () => onStorageClick(s) }}
                title={s.name}
              >
                <Tooltip>{s.name}</Tooltip>
              </Marker>
            ))
          : measurements.map((m) => (
              <Marker
                key={`m${m.id}`}
                position={[m.latitude, m.longitude]}
                icon={measurementIcon}
                eventHandlers={{ click: () => onMeasurementClick(m.id) }}
                title={labels.measurement(m.id)}
              >
                <Tooltip>
                  {labels.measurement(m.id)} · {m.storageName}
                </Tooltip>
              </Marker>
            ))}
      </MarkerClusterGroup>
    </MapContainer>
  );
}
