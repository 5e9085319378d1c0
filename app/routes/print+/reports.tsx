import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { ReportTallyTables } from "~/components/reports/report-tallies";
import { formatCount, formatDate, formatDateTime, isoDayToDisplay, volumeUnitLabel } from "~/domain";
import { intlLocale } from "~/i18n";
import { loadExportForJob } from "~/models/export.server";
import { reportParties } from "~/models/report-lookups.server";
import { readReportFor, reportPrintMeasurements } from "~/models/report.server";
import { ReportSelectionSchema } from "~/services/exports/reports/report-source.server";
import { fileStorage } from "~/services/file-storage.server";
import { notFound } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { verifyPrintToken } from "~/utils/print-token.server";

// The page the worker's Chromium prints for report_pdf (docs/decisions/026): the report as its
// page shows it (the same tally tables), its parties, and its measurements' thumbnails (the first
// PRINT_THUMBNAILS, oldest first, the rest counted), in the export owner's language. Opened with
// a short-lived signed print token, never with a user's cookie.

export const handle = { i18n: ["reports", "lookups", "exports"] };
export const meta: MetaFunction = () => [{ title: "Print" }, { name: "robots", content: "noindex" }];

/** Thumbnails printed (160 px each, embedded): enough to recognise the delivery, a few pages at most. */
export const PRINT_THUMBNAILS = 60;

async function thumbnailDataUri(key: string | null) {
  if (!key) return null;
  const stat = await fileStorage().stat(key);
  if (!stat) return null;
  return `data:image/jpeg;base64,${(await fileStorage().get(key)).toString("base64")}`;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const token = verifyPrintToken(new URL(request.url).searchParams.get("token"));
  if (!token) notFound();
  const row = await loadExportForJob(db(), token.exportId);
  if (!row || row.organization_id !== token.organizationId || row.report_type !== "report_pdf") notFound();
  const selection = ReportSelectionSchema.parse(row.params);
  const report = await readReportFor(db(), row.organization_id, selection.report_id);
  if (!report?.details) notFound();
  const [parties, measurements] = await Promise.all([
    reportParties(db(), report),
    reportPrintMeasurements(db(), report, PRINT_THUMBNAILS),
  ]);
  const thumbnails = await Promise.all(
    measurements.map(async (m) => ({
      id: m.id,
      takenAt: m.taken_at,
      logs: m.logs_count,
      storage: m.storage_name ?? null,
      src: await thumbnailDataUri(m.photo_thumbnail_key),
    })),
  );
  return json({
    locale: row.locale ?? "en",
    timeZone: row.time_zone ?? "UTC",
    printedAt: new Date().toISOString(),
    seller: parties.seller.name,
    buyer: parties.buyer?.name ?? null,
    currency: parties.seller.currency,
    report: {
      id: report.id,
      name: report.name,
      reported_at: report.reported_at,
      volume_formula: report.volume_formula,
      volume_unit: report.volume_unit,
      confirmed_at: report.confirmed_at,
      details: report.details,
    },
    thumbnails,
    more: Math.max(0, report.details.measurements_count - thumbnails.length),
  });
}

export default function PrintReport() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation(["reports", "lookups", "exports"]);
  const locale = intlLocale(data.locale);
  const { report } = data;
  return (
    <div className="print-doc report-print" data-print-ready="">
      <style>{PRINT_CSS}</style>
      <header className="print-head">
        <div>
          <p className="print-org">{data.seller}</p>
          <h1 data-testid="print-report-name">{report.name}</h1>
        </div>
        <div className="print-head-side">
          <strong>{isoDayToDisplay(report.reported_at)}</strong>
          {data.buyer ? (
            <span>
              {t("reports:files.buyer")}: {data.buyer}
            </span>
          ) : null}
        </div>
      </header>
      <dl className="print-info">
        <dt>{t("reports:fields.volumeFormula")}</dt>
        <dd>{t(`lookups:formulas.${report.volume_formula}.name`)}</dd>
        <dt>{t("reports:fields.volumeUnit")}</dt>
        <dd>{volumeUnitLabel(report.volume_unit)}</dd>
        <dt>{t("reports:files.measurementCount")}</dt>
        <dd>{formatCount(report.details.measurements_count, locale)}</dd>
        {report.confirmed_at ? (
          <>
            <dt>{t("reports:status.confirmed")}</dt>
            <dd>{formatDateTime(report.confirmed_at, data.timeZone)}</dd>
          </>
        ) : null}
      </dl>
      <ReportTallyTables details={report.details} unit={report.volume_unit} currency={data.currency} />
      {data.thumbnails.length ? (
        <section className="print-thumbs">
          <h2>{t("reports:detail.measurements", { count: report.details.measurements_count })}</h2>
          <ul>
            {data.thumbnails.map((m) => (
              <li key={m.id}>
                {m.src ? (
                  <img src={m.src} alt={t("reports:detail.photoAlt", { id: m.id })} />
                ) : (
                  <span className="print-nothumb">{t("reports:detail.noPhoto")}</span>
                )}
                <strong>{t("reports:detail.measurement", { id: m.id })}</strong>
                <span>{formatDate(m.takenAt, data.timeZone)}</span>
                <span>{t("reports:detail.logs", { count: m.logs })}</span>
              </li>
            ))}
          </ul>
          {data.more ? <p className="muted">{t("reports:files.moreMeasurements", { count: data.more })}</p> : null}
        </section>
      ) : null}
      <footer className="print-foot">
        <span>{data.seller}</span>
        <span>{t("exports:print.printed", { date: formatDateTime(data.printedAt, data.timeZone) })}</span>
      </footer>
    </div>
  );
}

const PRINT_CSS = `
@page { size: A4; margin: 12mm 12mm 14mm; }
html, body { background: #fff !important; color: #111; min-height: 0 !important; height: auto !important; }
body { font: 9.5pt/1.3 system-ui, "Noto Sans", sans-serif; margin: 0; }
.toaster { display: none; }
.print-head { display: flex; justify-content: space-between; align-items: flex-end; gap: 6mm; border-bottom: 0.4mm solid #2e7d32; padding-bottom: 2mm; margin-bottom: 3mm; }
.print-org { margin: 0; color: #2e7d32; font-weight: 700; font-size: 10pt; }
.print-head h1 { font-size: 15pt; margin: 0.5mm 0 0; }
.print-head-side { display: flex; flex-direction: column; align-items: flex-end; }
.print-info { display: grid; grid-template-columns: max-content 1fr max-content 1fr; gap: 0.8mm 4mm; margin: 0 0 2mm; }
.print-info dt { color: #555; }
.print-info dd { margin: 0; font-weight: 600; }
.report-print table { width: 100%; border-collapse: collapse; font-size: 8.5pt; margin-bottom: 2mm; }
.report-print th, .report-print td { border: 1px solid #bbb; padding: 0.4mm 1.6mm; text-align: left; }
.report-print .num { text-align: right; }
.report-print thead th { background: #f1f5f2; font-weight: 600; }
.report-print tr { break-inside: avoid; }
.report-print .muted { color: #555; }
.print-thumbs ul { list-style: none; padding: 0; margin: 0; display: grid; grid-template-columns: repeat(5, 1fr); gap: 2mm; }
.print-thumbs li { display: flex; flex-direction: column; gap: 0.5mm; font-size: 7.5pt; break-inside: avoid; }
.print-thumbs img, .print-nothumb { width: 100%; aspect-ratio: 1; object-fit: cover; display: block; border: 1px solid #ddd; }
.print-nothumb { display: flex; align-items: center; justify-content: center; color: #777; }
h2 { font-size: 10.5pt; margin: 2mm 0 1.5mm; }
.print-foot { display: flex; justify-content: space-between; margin-top: 3mm; padding-top: 1mm; border-top: 1px solid #ddd; color: #777; font-size: 7.5pt; break-inside: avoid; }
`;

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
