import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formulaName, measurementTypeName } from "~/utils/lookup-name";
import { formatsFor } from "~/utils/use-format";

type Fmt = Parameters<typeof formatsFor>[0];

export interface TruckCard {
  id: number;
  taken_at: string;
  wood_type_ids: number[];
  loads: number;
  log_lengths: number[];
  volume: number;
  truck: { license_plate: string | null };
  load_beds: string[];
  measurement_type_id: number;
  volume_formula: string | null;
  photo_thumbnail: string | null;
}

export interface TruckDiameterCard {
  id: number;
  taken_at: string;
  wood_type_id: number | null;
  logs_count: number;
  log_length: number;
  volume: number;
  volume_formula: string;
  trailer_license_plate: string | null;
  load_bed_name: string | null;
  detector: string | null;
  measurement_type_id: number;
  photo_thumbnail: string | null;
}

/**
 * The expanded shipment's measurement cards: a 64 px thumbnail, the id (a link to the detail),
 * taken time, species, log count, log length, volume, formula, trailer plate, load bed, detector
 * and measurement type; truck measurements (loads) and truck-diameter measurements (logs).
 */
export function MeasurementCards({
  cards,
  woodTypes,
  fmt,
}: {
  cards: { truck_measurements: TruckCard[]; truck_diameter_measurements: TruckDiameterCard[] };
  woodTypes: Record<string, string>;
  fmt: Fmt;
}) {
  const { t } = useTranslation(["shipments", "lookups"]);
  const f = formatsFor(fmt);
  const dash = "–";
  const species = (ids: Array<number | null>) =>
    ids
      .filter((id): id is number => id !== null)
      .map((id) => woodTypes[id] ?? String(id))
      .join(", ") || dash;
  const all = [
    ...cards.truck_diameter_measurements.map((m) => ({
      method: "truck_diameter" as const,
      id: m.id,
      takenAt: m.taken_at,
      thumbnail: m.photo_thumbnail,
      species: species([m.wood_type_id]),
      logs: m.logs_count ? f.count(m.logs_count) : dash,
      length: f.quantity(m.log_length, 2, "m"),
      volume: f.volume(m.volume),
      formula: formulaName(t, m.volume_formula),
      plate: m.trailer_license_plate ?? dash,
      bed: m.load_bed_name ?? dash,
      detector: m.detector ?? dash,
      type: m.measurement_type_id,
    })),
    ...cards.truck_measurements.map((m) => ({
      method: "truck" as const,
      id: m.id,
      takenAt: m.taken_at,
      thumbnail: m.photo_thumbnail,
      species: species(m.wood_type_ids),
      logs: dash,
      length: m.log_lengths.length ? m.log_lengths.map((l) => f.quantity(l, 2, "m")).join(", ") : dash,
      volume: f.volume(m.volume),
      formula: m.volume_formula ? formulaName(t, m.volume_formula) : dash,
      plate: m.truck.license_plate ?? dash,
      bed: m.load_beds.join(", ") || dash,
      detector: dash,
      type: m.measurement_type_id,
    })),
  ].sort((a, b) => a.takenAt.localeCompare(b.takenAt));
  if (!all.length)
    return (
      <p className="muted" data-testid="shipment-no-measurements">
        {t("cards.none")}
      </p>
    );
  return (
    <div className="shipment-cards" data-testid="shipment-cards">
      {all.map((c) => (
        <article className="card shipment-card" key={`${c.method}-${c.id}`} data-testid={`card-${c.method}-${c.id}`}>
          {c.thumbnail ? (
            <img src={c.thumbnail} width={64} height={64} alt={t("cards.photoAlt", { id: c.id })} loading="lazy" />
          ) : (
            <span className="thumb-placeholder" aria-label={t("cards.noPhoto")} />
          )}
          <div>
            <h4 className="card-title">
              <Link to={`/measurements/cmpc/${c.method}/${c.id}`} data-testid={`open-${c.method}-${c.id}`}>
                {t(c.method === "truck" ? "cards.truck" : "cards.truckDiameter", { id: c.id })}
              </Link>
            </h4>
            <dl>
              <dt>{t("cards.takenAt")}</dt>
              <dd>{f.dateTime(c.takenAt)}</dd>
              <dt>{t("cards.species")}</dt>
              <dd>{c.species}</dd>
              <dt>{t("cards.logs")}</dt>
              <dd data-testid="card-logs">{c.logs}</dd>
              <dt>{t("cards.logLength")}</dt>
              <dd>{c.length}</dd>
              <dt>{t("cards.volume")}</dt>
              <dd data-testid="card-volume">{c.volume}</dd>
              <dt>{t("cards.formula")}</dt>
              <dd>{c.formula}</dd>
              <dt>{t("cards.trailerPlate")}</dt>
              <dd>{c.plate}</dd>
              <dt>{t("cards.loadBed")}</dt>
              <dd>{c.bed}</dd>
              <dt>{t("cards.detector")}</dt>
              <dd>{c.detector}</dd>
              <dt>{t("cards.type")}</dt>
              <dd>{measurementTypeName(t, c.type)}</dd>
            </dl>
          </div>
        </article>
      ))}
    </div>
  );
}
