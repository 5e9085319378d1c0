import L from "leaflet";
import { useEffect, useState } from "react";
import { MapContainer, Marker, Polyline, TileLayer, Tooltip, useMap } from "react-leaflet";

// The truck maps (browser only: Leaflet needs the DOM): the live map's trucks at their last
// position, and a route's path with its start and end. Markers are CSS div icons, so the map draws
// with no tile server (MAP_TILE_URL=none). The map resizes itself 2 s after it opens (the spec's
// constant: the panel it sits in may still be opening).

export interface MapRoute {
  id: number;
  label: string;
  /** The truck's last position, if it sent one. */
  last: [number, number] | null;
  /** The whole path, when shown. */
  path?: Array<[number, number]>;
}

export const MAP_RESIZE_DELAY_MS = 2000;

function truckIcon(route: MapRoute, selected: boolean) {
  const [lat, lng] = route.last ?? [0, 0];
  return L.divIcon({
    className: `map-marker map-marker-truck${selected ? " map-marker-selected" : ""}`,
    html: `<span data-testid="truck-marker" data-route-id="${route.id}" data-lat="${lat}" data-lng="${lng}"></span>`,
    iconSize: selected ? [24, 24] : [18, 18],
    iconAnchor: selected ? [12, 12] : [9, 9],
  });
}
const endpointIcon = (which: "start" | "end") =>
  L.divIcon({
    className: `map-marker map-marker-route-${which}`,
    html: `<span data-testid="route-${which}"></span>`,
    iconSize: [14, 14],
    iconAnchor: [7, 7],
  });

function Fit({ points, fitKey }: { points: Array<[number, number]>; fitKey: string }) {
  const map = useMap();
  useEffect(() => {
    if (points.length === 1) map.setView(points[0], 14);
    else if (points.length > 1) map.fitBounds(L.latLngBounds(points), { padding: [30, 30], maxZoom: 16 });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- fitKey stands for the points: fit when the set changes, not on every move
  }, [fitKey, map]);
  return null;
}

function ResizeLater() {
  const map = useMap();
  useEffect(() => {
    const timer = setTimeout(() => map.invalidateSize(), MAP_RESIZE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [map]);
  return null;
}

export default function TruckMap({
  routes,
  selectedId,
  onSelect,
  endpoints,
  className,
}: {
  routes: MapRoute[];
  selectedId: number | null;
  onSelect?: (id: number) => void;
  /** Start and end markers on each shown path (the measurement detail's route map). */
  endpoints?: boolean;
  className?: string;
}) {
  const [tileUrl] = useState(() => window.ENV?.MAP_TILE_URL ?? "");
  const selected = routes.find((r) => r.id === selectedId);
  // Fit to the selected route's path, else to every truck (the set of routes, not their moves).
  const fitPoints = selected?.path?.length
    ? selected.path
    : routes.flatMap((r) => (r.path?.length ? r.path : r.last ? [r.last] : []));
  const fitKey = selected?.path?.length
    ? `route-${selected.id}-${selected.path.length > 0}`
    : routes.map((r) => `${r.id}:${r.path?.length ?? 0}`).join(",");
  return (
    <MapContainer center={[58.6, 25.0]} zoom={5} minZoom={2} maxZoom={19} className={className ?? "truck-map-canvas"}>
      {tileUrl ? <TileLayer url={tileUrl} attribution={window.ENV?.MAP_TILE_ATTRIBUTION ?? ""} /> : null}
      <Fit points={fitPoints} fitKey={fitKey} />
      <ResizeLater />
      {routes.map((r) =>
        r.path && r.path.length > 1 ? (
          <Polyline
            key={`p${r.id}-${r.id === selectedId}`}
            positions={r.path}
            pathOptions={{ color: r.id === selectedId ? "#d9480f" : "#1c7ed6", weight: r.id === selectedId ? 5 : 3 }}
          />
        ) : null,
      )}
      {endpoints
        ? routes.flatMap((r) =>
            r.path && r.path.length
              ? [
                  <Marker key={`s${r.id}`} position={r.path[0]} icon={endpointIcon("start")} />,
                  <Marker key={`e${r.id}`} position={r.path[r.path.length - 1]} icon={endpointIcon("end")} />,
                ]
              : [],
          )
        : routes.map((r) =>
            r.last ? (
              <Marker
                key={`t${r.id}`}
                position={r.last}
                icon={truckIcon(r, r.id === selectedId)}
                title={r.label}
                eventHandlers={onSelect ? { click: () => onSelect(r.id) } : undefined}
              >
                <Tooltip>{r.label}</Tooltip>
              </Marker>
            ) : null,
          )}
    </MapContainer>
  );
}
