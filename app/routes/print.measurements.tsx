import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { clampPrecision, formatDiameter, formatNumber, formatVolume, isVolumeUnit, summarizeMeasurement, type LogFormula } from "~/domain";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { intlLocale } from "~/i18n";
import { loadExportForJob } from "~/models/export.server";
import { loadMeasurementsForPrint, type Selection } from "~/models/export-rows.server";
import { toUserVolume } from "~/services/excel-reports.server";
import { fileStorage } from "~/services/file-storage.server";
import { notFound } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { verifyPrintToken } from "~/utils/print-token.server";

// The page the worker's Chromium prints to PDF (A4): per measurement the photo with the log
// overlay (circles with their diameter to 1 decimal), the details and the logs sheet, in the
// export owner's language. Opened with a short-lived signed token, never with a user's cookie.

export const handle = { i18n: ["exports", "lookups"] };
export const meta: MetaFunction = () => [{ title: "Print" }, { name: "robots", content: "noindex" }];

async function photoDataUri(key: string | null) {
  if (!key) return null;
  const stat = await fileStorage().stat(key);
  if (!stat) return null;
  const type = key.endsWith(".png") ? "image/png" : key.endsWith(".webp") ? "image/webp" : "image/jpeg";
  return `data:${type};base64,${(await fileStorage().get(key)).toString("base64")}`;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const token = verifyPrintToken(new URL(request.url).searchParams.get("token"));
  if (!token) notFound();
  const row = await loadExportForJob(db(), token.exportId);
  if (!row || row.organization_id !== token.organizationId || row.kind !== "pdf") notFound();
  const selection = row.params as Selection;
  const measurements = await loadMeasurementsForPrint(db(), row.organization_id, selection.measurement_ids ?? []);
  const unit = isVolumeUnit(row.volume_unit) ? row.volume_unit : "m^3";
  const out = await Promise.all(
    measurements.map(async (m) => {
      const convert = (v: number) => toUserVolume(v, m.volume_formula, unit, m.coefficient);
      const summary = summarizeMeasurement(
        m.logs.map((l) => ({ d: l.d, v: l.v, cullId: l.cull_id, assortmentId: l.assortment_id })),
        { formula: m.volume_formula as LogFormula, logLengthM: m.log_length ?? undefined },
      );
      const src = await photoDataUri(m.photo_popup_key ?? m.photo_optimized_key ?? m.photo_key);
      return {
        id: m.id,
        storageName: m.storage_name,
        takenAt: m.taken_at,
        measuredAt: m.measured_at,
        measurementTypeId: m.measurement_type_id,
        woodType: m.wood_type_id === null ? null : { id: m.wood_type_id, name: m.wood_type_name, builtIn: m.wood_type_org === null },
        woodQuality: m.wood_quality_name,
        assortment: m.assortment_name,
        formula: m.volume_formula,
        logLength: m.log_length,
        comment: m.comment,
        volume: convert(m.volume),
        photo: src && m.photo_width && m.photo_height ? { src, width: m.photo_width, height: m.photo_height } : null,
        logs: m.logs.map((l) => ({ x: l.x, y: l.y, r: l.r, d: l.d, modified: l.modified_at !== null })),
        logCount: summary.logCount,
        logsVolume: convert(summary.volume),
        culledCount: summary.culledCount,
        averageDiameter: summary.averageDiameterCm,
        minDiameter: summary.minDiameterCm,
        maxDiameter: summary.maxDiameterCm,
        sheet: summary.logsSheet.map((s) => ({ d: s.diameterCm, length: s.lengthM, count: s.count, volume: convert(s.volume) })),
      };
    }),
  );
  return json({
    locale: row.locale ?? "en",
    timeZone: row.time_zone ?? "UTC",
    precision: clampPrecision(row.rounding_precision ?? 2),
    unit,
    printedAt: new Date().toISOString(),
    measurements: out,
  });
}

export default function PrintMeasurements() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation(["exports", "lookups"]);
  const locale = intlLocale(data.locale);
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "short", timeStyle: "short", timeZone: data.timeZone });
  const vol = (v: number) => formatVolume(v, { precision: data.precision, unit: data.unit, locale });
  const diam = (d: number) => formatDiameter(d, { locale });
  return (
    <div className="print-doc" data-print-ready="">
      <style>{PRINT_CSS}</style>
      {data.measurements.map((m) => (
        <article key={m.id} className="print-page" data-testid={`print-measurement-${m.id}`}>
          <header className="print-head">
            <h1>{t("print.title", { id: m.id })}</h1>
            <p>{m.storageName}</p>
          </header>
          {m.photo ? (
            <svg className="print-photo" viewBox={`0 0 ${m.photo.width} ${m.photo.height}`} role="img" aria-label={t("print.photo")}>
              <image href={m.photo.src} x="0" y="0" width={m.photo.width} height={m.photo.height} />
              {m.logs.map((l, i) => (
                <g key={i}>
                  <circle cx={l.x} cy={l.y} r={l.r} fill="none" stroke={l.modified ? "#d32f2f" : "#2e7d32"} strokeWidth={Math.max(2, m.photo!.width / 600)} />
                  <text x={l.x} y={l.y} textAnchor="middle" dominantBaseline="central" fontSize={Math.max(10, Math.min(l.r * 0.7, m.photo!.width / 60))} fill="#fff" stroke="#000" strokeWidth={0.6} paintOrder="stroke">
                    {formatNumber(l.d, 1, "en", false)}
                  </text>
                </g>
              ))}
            </svg>
          ) : (
            <p className="print-nophoto">{t("print.noPhoto")}</p>
          )}
          <section className="print-details">
            <h2>{t("print.details")}</h2>
            <dl>
              <dt>{t("excel.columns.storage")}</dt><dd>{m.storageName}</dd>
              <dt>{t("excel.columns.takenAt")}</dt><dd>{date.format(new Date(m.takenAt))}</dd>
              <dt>{t("excel.columns.measuredAt")}</dt><dd>{m.measuredAt ? date.format(new Date(m.measuredAt)) : "-"}</dd>
              <dt>{t("excel.columns.measurementType")}</dt><dd>{t(`lookups:measurementTypes.${m.measurementTypeId}`)}</dd>
              <dt>{t("excel.columns.woodType")}</dt><dd>{m.woodType ? (m.woodType.builtIn ? t(`lookups:wood_types.${m.woodType.id}`, { defaultValue: m.woodType.name ?? "" }) : m.woodType.name) : "-"}</dd>
              <dt>{t("excel.columns.woodQuality")}</dt><dd>{m.woodQuality ?? "-"}</dd>
              <dt>{t("excel.columns.assortment")}</dt><dd>{m.assortment ?? "-"}</dd>
              <dt>{t("excel.columns.formula")}</dt><dd>{t(`lookups:formulas.${m.formula}.name`, { defaultValue: m.formula })}</dd>
              <dt>{t("excel.columns.length", { unit: "m" })}</dt><dd>{m.logLength === null ? "-" : formatNumber(m.logLength, 2, locale)}</dd>
              <dt>{t("excel.columns.logs")}</dt><dd data-testid="print-log-count">{m.logCount}</dd>
              <dt>{t("print.culled")}</dt><dd>{m.culledCount}</dd>
              <dt>{t("print.averageDiameter")}</dt><dd>{m.logCount ? `${diam(m.averageDiameter)} cm` : "-"}</dd>
              <dt>{t("print.diameterRange")}</dt><dd>{m.logCount ? `${diam(m.minDiameter)} – ${diam(m.maxDiameter)} cm` : "-"}</dd>
              <dt>{t("print.volume")}</dt><dd data-testid="print-volume">{vol(m.volume)}</dd>
              {m.comment ? (<><dt>{t("excel.columns.comment")}</dt><dd>{m.comment}</dd></>) : null}
            </dl>
          </section>
          <section className="print-sheet">
            <h2>{t("print.logsSheet")}</h2>
            <div className="print-sheet-columns">
              {halves(m.sheet).map((rows, i) => (
                <table key={i}>
                  <thead>
                    <tr>
                      <th>{t("excel.columns.diameter", { unit: "cm" })}</th>
                      <th>{t("excel.columns.length", { unit: "m" })}</th>
                      <th>{t("excel.columns.logs")}</th>
                      <th>{t("excel.columns.volume", { unit: t(`lookups:volumeUnits.${data.unit}`) })}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((s) => (
                      <tr key={`${s.d}|${s.length}`}>
                        <td>{s.d}</td>
                        <td>{formatNumber(s.length, 2, locale)}</td>
                        <td>{s.count}</td>
                        <td>{formatVolume(s.volume, { precision: data.precision, locale })}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ))}
            </div>
            <p className="print-total">
              <span>{t("print.total")}</span>
              <span>{t("excel.columns.logs")}: <strong>{m.logCount}</strong></span>
              <span>{t("print.volume")}: <strong>{vol(m.logsVolume)}</strong></span>
            </p>
          </section>
          <footer className="print-foot">{t("print.printed", { date: date.format(new Date(data.printedAt)) })}</footer>
        </article>
      ))}
    </div>
  );
}

/** The logs sheet in two columns side by side, so a usual stack fits one A4 page. */
function halves<T>(rows: T[]): T[][] {
  if (rows.length <= 12) return [rows];
  const half = Math.ceil(rows.length / 2);
  return [rows.slice(0, half), rows.slice(half)];
}

const PRINT_CSS = `
@page { size: A4; margin: 12mm; }
body { background: #fff; color: #111; font: 10pt/1.35 system-ui, sans-serif; margin: 0; }
.toaster { display: none; }
.print-page { break-after: page; }
.print-page:last-child { break-after: auto; }
.print-head { display: flex; justify-content: space-between; align-items: baseline; border-bottom: 1px solid #999; margin-bottom: 4mm; }
.print-head h1 { font-size: 15pt; margin: 0; }
.print-photo { width: 100%; max-height: 105mm; display: block; margin-bottom: 3mm; }
.print-nophoto { border: 1px dashed #999; padding: 8mm; text-align: center; color: #555; }
.print-details dl { display: grid; grid-template-columns: max-content 1fr max-content 1fr; gap: 1mm 4mm; margin: 0 0 4mm; }
.print-details dt { color: #555; }
.print-details dd { margin: 0; font-weight: 600; }
.print-sheet-columns { display: flex; gap: 4mm; align-items: flex-start; }
.print-sheet table { flex: 1; border-collapse: collapse; font-size: 9pt; }
.print-total { display: flex; gap: 8mm; justify-content: flex-end; margin: 2mm 0 0; }
.print-sheet th, .print-sheet td { border: 1px solid #bbb; padding: 0.6mm 2mm; text-align: right; }
.print-sheet thead { display: table-header-group; }
.print-sheet tr { break-inside: avoid; }
h2 { font-size: 11pt; margin: 3mm 0 2mm; }
.print-foot { margin-top: 4mm; color: #777; font-size: 8pt; }
`;

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
