import { useTranslation } from "react-i18next";
import { ShortSha256 } from "~/components/measurements/trust-panels";
import { Icon } from "~/components/ui/icon";
import { publicRowVolume, publicVolume } from "~/utils/public-format";
import type { formatsFor } from "~/utils/use-format";

// The pieces the public container and bill-of-lading pages share: a container's details, its
// measurements, and the JAS tally. Volumes are JAS m³ to 3 decimals in the page's number format
// (docs/decisions/013-public-links.md); the figures are the loader's, never computed here.

type Formats = ReturnType<typeof formatsFor>;

export interface PublicContainerMeasurementItem {
  id: number;
  shown_name: string;
  taken_at: string | Date;
  logs_count: number;
  log_length: number | null;
  volume: number;
  locked: boolean;
  photo_thumbnail: string | null;
  photo_sha256: string | null;
}

export interface PublicContainerItem {
  name: string;
  seal_number: string | null;
  weight: string | null;
  width: string | null;
  height: string | null;
  tare_weight: number | null;
  net_weight: number | null;
  measurement_count: number;
  log_count: number;
  volume: number;
  measurements: PublicContainerMeasurementItem[];
}

/** Seal number, sizes and weights as typed (weights in kg); only the ones given. */
export function PublicContainerDetails({ container, f }: { container: PublicContainerItem; f: Formats }) {
  const { t } = useTranslation("public");
  const items: Array<[string, string]> = [];
  if (container.seal_number) items.push([t("container.sealNumber"), container.seal_number]);
  if (container.weight) items.push([t("container.weight"), container.weight]);
  if (container.width) items.push([t("container.width"), container.width]);
  if (container.height) items.push([t("container.height"), container.height]);
  if (container.tare_weight !== null) items.push([t("container.tareWeight"), f.number(container.tare_weight, 0)]);
  if (container.net_weight !== null) items.push([t("container.netWeight"), f.number(container.net_weight, 0)]);
  if (!items.length) return null;
  return (
    <dl className="public-details public-container-details">
      {items.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A container's measurements as cards: thumbnail, name, time, length, logs and JAS volume. */
export function PublicContainerMeasurements({
  measurements,
  f,
}: {
  measurements: PublicContainerMeasurementItem[];
  f: Formats;
}) {
  const { t } = useTranslation("public");
  if (!measurements.length)
    return (
      <p className="muted" data-testid="public-container-empty">
        {t("container.noMeasurements")}
      </p>
    );
  return (
    <ul className="measurement-cards public-cards">
      {measurements.map((m) => (
        <li key={m.id} className="measurement-card" data-testid={`public-container-measurement-${m.id}`}>
          <div className="measurement-link">
            {m.photo_thumbnail ? (
              <img
                className="thumb"
                src={m.photo_thumbnail}
                alt={t("container.photoAlt", { name: m.shown_name })}
                width={80}
                height={80}
                loading="lazy"
              />
            ) : (
              <span className="thumb thumb-pending" title={t("container.noPhoto")}>
                <Icon name="photo" />
              </span>
            )}
            <span className="measurement-meta">
              <strong>
                {t("container.measurement", { name: m.shown_name })}
                {m.locked ? <span className="badge"> {t("container.locked")}</span> : null}
              </strong>
              <span>{f.dateTime(m.taken_at)}</span>
              <span>
                {[
                  m.log_length !== null ? `${t("container.logLength")}: ${f.quantity(m.log_length, 2, "m")}` : null,
                  `${t("container.logs")}: ${f.count(m.logs_count)}`,
                ]
                  .filter(Boolean)
                  .join(" · ")}
              </span>
              {m.photo_sha256 ? (
                <ShortSha256 sha256={m.photo_sha256} testId={`public-container-measurement-${m.id}-sha256`} />
              ) : null}
            </span>
            <span className="measurement-volume" data-testid={`public-container-measurement-${m.id}-volume`}>
              {publicVolume(m.volume, "m^3", f.locale)}
            </span>
          </div>
        </li>
      ))}
    </ul>
  );
}

export interface PublicTallyItem {
  jas_diameter: number;
  length: number;
  log_count: number;
  volume: number;
}

/** The JAS tally: logs by length and JAS scaling diameter, with the total the page's figures show. */
export function PublicJasTally({
  rows,
  total,
  f,
}: {
  rows: PublicTallyItem[];
  total: { log_count: number; volume: number };
  f: Formats;
}) {
  const { t } = useTranslation("public");
  if (!rows.length) return null;
  return (
    <section className="card" data-testid="public-tally">
      <h2 className="card-title">{t("container.tally")}</h2>
      <div className="public-table-scroll">
        <table className="table public-tally">
          <thead>
            <tr>
              <th scope="col">{t("container.tallyLength")}</th>
              <th scope="col">{t("container.tallyDiameter")}</th>
              <th scope="col" className="num">
                {t("container.logs")}
              </th>
              <th scope="col" className="num">
                {t("container.volumeM3")}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.length}|${r.jas_diameter}`}>
                <td>{f.number(r.length, 2)}</td>
                <td>{f.number(r.jas_diameter, 0)}</td>
                <td className="num">{f.count(r.log_count)}</td>
                <td className="num">{publicRowVolume(r.volume, "m^3", f.locale)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={2}>
                {t("container.total")}
              </th>
              <td className="num" data-testid="public-tally-logs">
                {f.count(total.log_count)}
              </td>
              <td className="num" data-testid="public-tally-volume">
                {publicRowVolume(total.volume, "m^3", f.locale)}
              </td>
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  );
}
