import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import {
  clampPrecision,
  formatCount,
  formatDateTime,
  formatDiameter,
  formatNumber,
  formatVolume,
  isVolumeUnit,
  summarizeMeasurement,
  type LogFormula,
} from "~/domain";
import { intlLocale } from "~/i18n";
import { loadMeasurementsForPrint, type Selection } from "~/models/export-rows.server";
import { loadExportForJob } from "~/models/export.server";
import { getOrganization } from "~/models/organization.server";
import { toUserVolume } from "~/services/excel-reports.server";
import { fileStorage } from "~/services/file-storage.server";
import { notFound } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { formulaName, lookupName, measurementTypeName } from "~/utils/lookup-name";
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
  const measurements = await loadMeasurementsForPrint(
    db(),
    { organizationId: row.organization_id },
    selection.measurement_ids ?? [],
  );
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
        woodType:
          m.wood_type_id === null
            ? null
            : { id: m.wood_type_id, name: m.wood_type_name, organization_id: m.wood_type_org },
        woodQuality:
          m.wood_quality_id === null
            ? null
            : { id: m.wood_quality_id, name: m.wood_quality_name, organization_id: m.wood_quality_org },
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
        sheet: summary.logsSheet.map((s) => ({
          d: s.diameterCm,
          length: s.lengthM,
          count: s.count,
          volume: convert(s.volume),
        })),
      };
    }),
  );
  const organization = await getOrganization(db(), row.organization_id);
  return json({
    organizationName: organization?.name ?? "",
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
  const date = (v: string | null) => formatDateTime(v, data.timeZone);
  const vol = (v: number) => formatVolume(v, { precision: data.precision, unit: data.unit, locale });
  const diam = (d: number) => formatDiameter(d, { locale, withUnit: true });
  const count = (n: number) => formatCount(n, locale);
  return (
    <div className="print-doc" data-print-ready="">
      <style>{PRINT_CSS}</style>
      {data.measurements.map((m) => (
        <article key={m.id} className="print-page" data-testid={`print-measurement-${m.id}`}>
          <header className="print-head">
            <div>
              <p className="print-org" data-testid="print-organization">
                {data.organizationName}
              </p>
              <h1>{t("print.title", { id: m.id })}</h1>
            </div>
            <div className="print-head-side">
              <strong>{m.storageName}</strong>
              <span>{date(m.takenAt)}</span>
            </div>
          </header>
          {m.photo ? (
            <svg
              className="print-photo"
              viewBox={`0 0 ${m.photo.width} ${m.photo.height}`}
              role="img"
              aria-label={t("print.photo")}
            >
              <image href={m.photo.src} x="0" y="0" width={m.photo.width} height={m.photo.height} />
              {m.logs.map((l, i) => (
                <g key={i}>
                  <circle
                    cx={l.x}
                    cy={l.y}
                    r={l.r}
                    fill="none"
                    stroke={l.modified ? "#d32f2f" : "#2e7d32"}
                    strokeWidth={Math.max(2, m.photo!.width / 600)}
                  />
                  <text
                    x={l.x}
                    y={l.y}
                    textAnchor="middle"
                    dominantBaseline="central"
                    fontSize={Math.max(10, Math.min(l.r * 0.7, m.photo!.width / 60))}
                    fill="#fff"
                    stroke="#000"
                    strokeWidth={0.6}
                    paintOrder="stroke"
                  >
                    {formatNumber(l.d, 1, locale, false)}
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
              <dt>{t("excel.columns.storage")}</dt>
              <dd>{m.storageName}</dd>
              <dt>{t("excel.columns.takenAt")}</dt>
              <dd>{date(m.takenAt)}</dd>
              <dt>{t("excel.columns.measuredAt")}</dt>
              <dd>{date(m.measuredAt)}</dd>
              <dt>{t("excel.columns.measurementType")}</dt>
              <dd>{measurementTypeName(t, m.measurementTypeId)}</dd>
              <dt>{t("excel.columns.woodType")}</dt>
              <dd>{m.woodType ? lookupName(t, "wood_types", m.woodType) : "-"}</dd>
              <dt>{t("excel.columns.woodQuality")}</dt>
              <dd>{m.woodQuality ? lookupName(t, "wood_qualities", m.woodQuality) : "-"}</dd>
              <dt>{t("excel.columns.assortment")}</dt>
              <dd>{m.assortment ?? "-"}</dd>
              <dt>{t("excel.columns.formula")}</dt>
              <dd>{formulaName(t, m.formula)}</dd>
              <dt>{t("excel.columns.length", { unit: "m" })}</dt>
              <dd>{m.logLength === null ? "-" : formatNumber(m.logLength, 2, locale)}</dd>
              <dt>{t("excel.columns.logs")}</dt>
              <dd data-testid="print-log-count">{count(m.logCount)}</dd>
              <dt>{t("print.culled")}</dt>
              <dd>{count(m.culledCount)}</dd>
              <dt>{t("print.averageDiameter")}</dt>
              <dd>{m.logCount ? diam(m.averageDiameter) : "-"}</dd>
              <dt>{t("print.diameterRange")}</dt>
              <dd>{m.logCount ? `${diam(m.minDiameter)} – ${diam(m.maxDiameter)}` : "-"}</dd>
              <dt>{t("print.volume")}</dt>
              <dd data-testid="print-volume">{vol(m.volume)}</dd>
              {m.comment ? (
                <>
                  <dt>{t("excel.columns.comment")}</dt>
                  <dd className="print-comment">{m.comment}</dd>
                </>
              ) : null}
            </dl>
          </section>
          {m.sheet.length ? (
            <section className="print-sheet">
              <h2>{t("print.logsSheet")}</h2>
              {sheetBlocks(m.sheet).map((block, b) => (
                <div key={b} className={b === 0 ? "print-sheet-columns" : "print-sheet-columns print-sheet-next"}>
                  {block.map((rows, i) => (
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
                            <td>{formatNumber(s.d, Number.isInteger(s.d) ? 0 : 1, locale)}</td>
                            <td>{formatNumber(s.length, 2, locale)}</td>
                            <td>{count(s.count)}</td>
                            <td>{formatVolume(s.volume, { precision: data.precision, locale })}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  ))}
                </div>
              ))}
              <p className="print-total">
                <span>{t("print.total")}</span>
                <span>
                  {t("excel.columns.logs")}: <strong>{count(m.logCount)}</strong>
                </span>
                <span>
                  {t("print.volume")}: <strong>{vol(m.logsVolume)}</strong>
                </span>
              </p>
            </section>
          ) : null}
          <footer className="print-foot">
            <span>{data.organizationName}</span>
            <span>{t("print.printed", { date: date(data.printedAt) })}</span>
          </footer>
        </article>
      ))}
    </div>
  );
}

/*
 * The logs sheet in page-sized blocks of up to three side-by-side columns: the first block fits
 * under the photo and details of the first A4 page, each further block fills a page of its own.
 * The sheet has one row per diameter and length (a 2,000-log stack has a few dozen), so one page
 * is the usual case; the blocks keep the rare long sheet from splitting mid-column.
 */
const FIRST_PAGE_ROWS = 14;
const NEXT_PAGE_ROWS = 52;
const COLUMNS = 3;

function sheetBlocks<T>(rows: T[]): T[][][] {
  const blocks: T[][][] = [];
  const columnsOf = (slice: T[], perColumn: number) => {
    const n = Math.min(COLUMNS, Math.max(1, Math.ceil(slice.length / perColumn)));
    const size = Math.ceil(slice.length / n);
    return Array.from({ length: n }, (_, i) => slice.slice(i * size, (i + 1) * size)).filter((c) => c.length);
  };
  const first = rows.slice(0, FIRST_PAGE_ROWS * COLUMNS);
  blocks.push(columnsOf(first, FIRST_PAGE_ROWS));
  for (let i = first.length; i < rows.length; i += NEXT_PAGE_ROWS * COLUMNS) {
    blocks.push(columnsOf(rows.slice(i, i + NEXT_PAGE_ROWS * COLUMNS), NEXT_PAGE_ROWS));
  }
  return blocks;
}

// A4 is 210 x 297 mm; Chromium prints with 12 mm side and 12/14 mm top/bottom margins, leaving
// 186 x 271 mm. The photo is capped so photo, details and a 14-row sheet (three columns) share the first page.
const PRINT_CSS = `
@page { size: A4; margin: 12mm 12mm 14mm; }
html, body { background: #fff !important; color: #111; min-height: 0 !important; height: auto !important; }
body { font: 9.5pt/1.3 system-ui, "Noto Sans", sans-serif; margin: 0; }
.toaster { display: none; }
.print-page { break-after: page; }
.print-page:last-child { break-after: auto; }
.print-head { display: flex; justify-content: space-between; align-items: flex-end; gap: 6mm; border-bottom: 0.4mm solid #2e7d32; padding-bottom: 2mm; margin-bottom: 3mm; }
.print-org { margin: 0; color: #2e7d32; font-weight: 700; font-size: 10pt; }
.print-head h1 { font-size: 15pt; margin: 0.5mm 0 0; }
.print-head-side { display: flex; flex-direction: column; align-items: flex-end; }
.print-photo { width: 100%; max-height: 95mm; display: block; margin-bottom: 2mm; }
.print-nophoto { border: 1px dashed #999; padding: 6mm; text-align: center; color: #555; }
.print-details dl { display: grid; grid-template-columns: max-content 1fr max-content 1fr; gap: 0.8mm 4mm; margin: 0 0 2mm; }
.print-details dt { color: #555; }
.print-details dd { margin: 0; font-weight: 600; }
.print-details .print-comment { grid-column: 2 / -1; font-weight: 400; }
.print-sheet-columns { display: flex; gap: 3mm; align-items: flex-start; }
.print-sheet-next { break-before: page; }
.print-sheet table { flex: 1; border-collapse: collapse; font-size: 8.5pt; }
.print-sheet th, .print-sheet td { border: 1px solid #bbb; padding: 0.4mm 1.6mm; text-align: right; }
.print-sheet th { background: #f1f5f2; font-weight: 600; }
.print-sheet tr { break-inside: avoid; }
.print-total { display: flex; gap: 8mm; justify-content: flex-end; margin: 2mm 0 0; break-inside: avoid; }
h2 { font-size: 10.5pt; margin: 2mm 0 1.5mm; }
.print-foot { break-before: avoid; display: flex; justify-content: space-between; margin-top: 3mm; padding-top: 1mm; border-top: 1px solid #ddd; color: #777; font-size: 7.5pt; break-inside: avoid; }
`;

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
