import { useTranslation } from "react-i18next";
import { volumeUnitLabel, type AnyVolumeUnit } from "~/domain";
import { useFormat } from "~/utils/use-format";
import type { ReactNode } from "react";

interface Summary {
  unit: string;
  logCount: number;
  logsSheet: Array<{ diameterCm: number; lengthM: number; count: number; volume: number }>;
  byAssortment: Array<{ assortmentId: string | number | null; count: number; volume: number }>;
  byCull: Array<{ cullId: string | number; count: number; volume: number }>;
}

/** Logs sheet (diameter x length), per-assortment and per-cull totals from app/domain's summary. */
export function MeasurementTables({
  summary,
  lookups,
  fmtVolume,
}: {
  summary: Summary;
  lookups: { assortments: Array<{ id: number; name: string }>; culls: Array<{ id: number; name: string }> };
  fmtVolume: (v: number) => string;
}) {
  const { t } = useTranslation("timber");
  const format = useFormat();
  const unit = volumeUnitLabel(summary.unit as AnyVolumeUnit);
  const name = (list: Array<{ id: number; name: string }>, id: string | number | null) =>
    id === null
      ? t("tables.unassigned")
      : (list.find((x) => x.id === Number(id))?.name ?? <span className="text-warning">{id}</span>);
  if (summary.logCount === 0) return null;
  return (
    <div className="detail-tables">
      <section className="card">
        <h2 className="card-title">{t("tables.logsSheet")}</h2>
        <div className="table-wrap">
          <table className="table" data-testid="logs-sheet">
            <thead>
              <tr>
                <th className="num">{t("tables.diameter")}</th>
                <th className="num">{t("tables.length")}</th>
                <th className="num">{t("tables.count")}</th>
                <th className="num">{t("tables.volume", { unit })}</th>
              </tr>
            </thead>
            <tbody>
              {summary.logsSheet.map((r) => (
                <tr key={`${r.diameterCm}-${r.lengthM}`}>
                  <td className="num">{format.number(r.diameterCm, Number.isInteger(r.diameterCm) ? 0 : 1)}</td>
                  <td className="num">{format.number(r.lengthM, 2)}</td>
                  <td className="num">{format.count(r.count)}</td>
                  <td className="num">{fmtVolume(r.volume)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section className="card">
        <h2 className="card-title">{t("tables.byAssortment")}</h2>
        <TotalsTable
          testId="by-assortment"
          nameHeader={t("fields.assortment")}
          rows={summary.byAssortment.map((r) => ({
            key: String(r.assortmentId),
            name: name(lookups.assortments, r.assortmentId),
            count: format.count(r.count),
            volume: fmtVolume(r.volume),
          }))}
          countHeader={t("tables.count")}
          volumeHeader={t("tables.volume", { unit })}
        />
      </section>
      <section className="card">
        <h2 className="card-title">{t("tables.byCull")}</h2>
        {summary.byCull.length === 0 ? (
          <p className="muted">{t("tables.noCulls")}</p>
        ) : (
          <TotalsTable
            testId="by-cull"
            nameHeader={t("tables.cull")}
            rows={summary.byCull.map((r) => ({
              key: String(r.cullId),
              name: name(lookups.culls, r.cullId),
              count: format.count(r.count),
              volume: fmtVolume(r.volume),
            }))}
            countHeader={t("tables.count")}
            volumeHeader={t("tables.volume", { unit })}
          />
        )}
      </section>
    </div>
  );
}

type Status = { status: number; score?: number; angle?: number } | undefined;

/**
 * Metrology checks of the photo: status 1 is passed. With `values` (the public vmu page) each
 * check also shows what was measured: the camera angle in degrees, the interference and
 * brightness scores.
 */
export function Metrology({
  metrology,
  values = false,
}: {
  metrology: { angle_validation?: Status; interference?: Status; brightness?: Status; is_valid?: boolean } | null;
  values?: boolean;
}) {
  const { t } = useTranslation("timber");
  const format = useFormat();
  const valueOf = (k: "angle_validation" | "interference" | "brightness", s: Status) => {
    if (!s) return null;
    if (k === "angle_validation") return typeof s.angle === "number" ? `${format.number(s.angle, 1)}°` : null;
    return typeof s.score === "number" ? format.number(s.score, 2) : null;
  };
  return (
    <section className="card" data-testid="metrology">
      <h2 className="card-title">{t("metrology.title")}</h2>
      {!metrology ? (
        <p className="muted">{t("metrology.none")}</p>
      ) : (
        <ul className="metrology-list">
          {(["angle_validation", "interference", "brightness"] as const).map((k) => {
            const s = metrology[k];
            const value = values ? valueOf(k, s) : null;
            return (
              <li key={k} data-testid={`metrology-${k}`}>
                <span>{t(`metrology.${k}`)}</span>
                <span className="metrology-result">
                  {value !== null ? <span className="metrology-value">{value}</span> : null}
                  <span className={`badge ${s?.status === 1 ? "badge-state-success" : s ? "badge-danger" : ""}`}>
                    {s ? t(s.status === 1 ? "metrology.passed" : "metrology.failed") : "-"}
                  </span>
                </span>
              </li>
            );
          })}
          <li data-testid="metrology-valid">
            <strong>{t("metrology.valid")}</strong>
            <span className={`badge ${metrology.is_valid ? "badge-state-success" : "badge-danger"}`}>
              {t(metrology.is_valid ? "yes" : "no")}
            </span>
          </li>
        </ul>
      )}
    </section>
  );
}

/** Log count and volume per assortment or per cull. */
function TotalsTable({
  testId,
  nameHeader,
  countHeader,
  volumeHeader,
  rows,
}: {
  testId: string;
  nameHeader: string;
  countHeader: string;
  volumeHeader: string;
  rows: { key: string; name: ReactNode; count: string; volume: string }[];
}) {
  return (
    <table className="table" data-testid={testId}>
      <thead>
        <tr>
          <th>{nameHeader}</th>
          <th className="num">{countHeader}</th>
          <th className="num">{volumeHeader}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key}>
            <td>{r.name}</td>
            <td className="num">{r.count}</td>
            <td className="num">{r.volume}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
