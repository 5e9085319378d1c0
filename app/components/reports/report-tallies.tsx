import { useTranslation } from "react-i18next";
import type { ReportDetailsJson } from "#db/schema";
import { DASH, volumeUnitLabel } from "~/domain/format";
import type { VolumeUnit } from "~/domain/units";
import { useFormat } from "~/utils/use-format";

/** Report tables show volumes to 4 decimals (the spec's constant). */
export const REPORT_VOLUME_DECIMALS = 4;

/** A report's stored tallies: logs by diameter, assortments with prices and value, culls. */
export function ReportTallyTables({
  details,
  unit,
  currency,
}: {
  details: ReportDetailsJson | null;
  unit: VolumeUnit;
  currency: string;
}) {
  const { t } = useTranslation("reports");
  const f = useFormat();
  if (!details || details.logs.length === 0)
    return (
      <p className="muted" data-testid="report-no-logs">
        {t("detail.noLogs")}
      </p>
    );
  const u = volumeUnitLabel(unit);
  const vol = (v: number) => f.number(v, REPORT_VOLUME_DECIMALS);
  const money = (v: number | null) => (v === null ? DASH : `${f.number(v, 2)} ${currency}`);
  const names = new Map(details.characteristics.map((c) => [c.id, c.name]));
  const culls = new Map(details.culls.map((c) => [c.id, c.name]));
  return (
    <>
      <section aria-labelledby="report-logs-title">
        <h2 id="report-logs-title">{t("detail.logsTitle")}</h2>
        <div className="table-wrap">
          <table className="table" data-testid="report-logs">
            <thead>
              <tr>
                <th scope="col" className="num">
                  {t("detail.diameter")}
                </th>
                <th scope="col" className="num">
                  {t("detail.logCount")}
                </th>
                <th scope="col" className="num">
                  {t("detail.volume", { unit: u })}
                </th>
                <th scope="col">{t("detail.characteristic")}</th>
                <th scope="col">{t("detail.cull")}</th>
              </tr>
            </thead>
            <tbody>
              {details.logs.map((l) => (
                <tr key={`${l.diameter}-${l.characteristic_id}-${l.cull_id}`}>
                  <td className="num">{f.count(l.diameter)}</td>
                  <td className="num">{f.count(l.log_count)}</td>
                  <td className="num">{vol(l.volume)}</td>
                  <td>
                    {l.characteristic_id === null
                      ? l.cull_id === null
                        ? t("detail.unsorted")
                        : DASH
                      : (names.get(l.characteristic_id) ?? `#${l.characteristic_id}`)}
                  </td>
                  <td>{l.cull_id === null ? DASH : (culls.get(l.cull_id) ?? `#${l.cull_id}`)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">{t("detail.total")}</th>
                <td className="num" data-testid="report-total-logs">
                  {f.count(details.totals.log_count)}
                </td>
                <td className="num" data-testid="report-total-volume">
                  {vol(details.totals.volume)}
                </td>
                <td colSpan={2} />
              </tr>
            </tfoot>
          </table>
        </div>
      </section>
      <section aria-labelledby="report-characteristics-title">
        <h2 id="report-characteristics-title">{t("detail.characteristicsTitle")}</h2>
        <div className="table-wrap">
          <table className="table" data-testid="report-characteristics">
            <thead>
              <tr>
                <th scope="col">{t("detail.characteristic")}</th>
                <th scope="col" className="num">
                  {t("detail.price")}
                </th>
                <th scope="col" className="num">
                  {t("detail.logCount")}
                </th>
                <th scope="col" className="num">
                  {t("detail.volume", { unit: u })}
                </th>
                <th scope="col" className="num">
                  {t("detail.value")}
                </th>
              </tr>
            </thead>
            <tbody>
              {details.characteristics.map((c) => (
                <tr key={c.id} data-testid={`report-characteristic-${c.id}`}>
                  <td>{c.name}</td>
                  <td className="num">
                    {c.price_per_log !== null
                      ? t("detail.perLog", { price: money(c.price_per_log) })
                      : c.price !== null
                        ? t("detail.perUnit", {
                            price: money(c.price),
                            unit: volumeUnitLabel(c.price_unit as VolumeUnit),
                          })
                        : DASH}
                  </td>
                  <td className="num">{f.count(c.log_count)}</td>
                  <td className="num">{vol(c.volume)}</td>
                  <td className="num" data-testid={`report-value-${c.id}`}>
                    {money(c.value)}
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={4}>
                  {t("detail.totalValue")}
                </th>
                <td className="num" data-testid="report-total-value">
                  {money(details.totals.value)}
                </td>
              </tr>
            </tfoot>
          </table>
        </div>
      </section>
      <section aria-labelledby="report-culls-title">
        <h2 id="report-culls-title">{t("detail.cullsTitle")}</h2>
        {details.culls.length === 0 ? (
          <p className="muted">{t("detail.noCulls")}</p>
        ) : (
          <div className="table-wrap">
            <table className="table" data-testid="report-culls">
              <thead>
                <tr>
                  <th scope="col">{t("detail.cull")}</th>
                  <th scope="col" className="num">
                    {t("detail.logCount")}
                  </th>
                  <th scope="col" className="num">
                    {t("detail.volume", { unit: u })}
                  </th>
                </tr>
              </thead>
              <tbody>
                {details.culls.map((c) => (
                  <tr key={c.id}>
                    <td>{c.name}</td>
                    <td className="num">{f.count(c.log_count)}</td>
                    <td className="num">{vol(c.volume)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
