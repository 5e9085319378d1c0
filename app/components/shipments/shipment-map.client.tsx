import L from "leaflet";
import { useState } from "react";
import { MapContainer, Marker, Polyline, TileLayer } from "react-leaflet";

// A shipment's route map (browser only: Leaflet needs the DOM): each route's path through its
// checkpoints, a start marker at the first checkpoint and an end marker at the last; zoom 8 on
// the start (the spec's constant). Markers are CSS div icons, so it draws with no tile server.

export const ROUTE_MAP_ZOOM = 8;

const endpointIcon = (which: "start" | "end") =>
  L.divIcon({
    className: `map-marker map-marker-route-${which}`,
    html: `<span data-testid="shipment-route-${which}"></span>`,
    iconSize: [14, 14],
    iconAnchor: [7, 7],
  });

export default function ShipmentMap({ paths }: { paths: Array<Array<[number, number]>> }) {
  const [tileUrl] = useState(() => window.ENV?.MAP_TILE_URL ?? "");
  const drawn = paths.filter((p) => p.length > 0);
  const start = drawn[0][0];
  const lastPath = drawn[drawn.length - 1];
  const end = lastPath[lastPath.length - 1];
  return (
    <MapContainer center={start} zoom={ROUTE_MAP_ZOOM} className="shipment-map-canvas" data-testid="shipment-map">
      {tileUrl ? <TileLayer url={tileUrl} attribution={window.ENV?.MAP_TILE_ATTRIBUTION ?? ""} /> : null}
      {drawn.map((p, i) =>
        p.length > 1 ? <Polyline key={i} positions={p} pathOptions={{ color: "#1c7ed6", weight: 3 }} /> : null,
      )}
      <Marker position={start} icon={endpointIcon("start")} />
      <Marker position={end} icon={endpointIcon("end")} />
    </MapContainer>
  );
}
