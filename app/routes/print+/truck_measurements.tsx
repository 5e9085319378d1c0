import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import {
  clampPrecision,
  convertVolume,
  formatCount,
  formatDateTime,
  formatNumber,
  formatVolume,
  isVolumeUnit,
} from "~/domain";
import { intlLocale } from "~/i18n";
import type { Selection } from "~/models/export-rows.server";
import { loadExportForJob } from "~/models/export.server";
import { getOrganization } from "~/models/organization.server";
import { loadTruckMeasurementForPrint } from "~/models/truck-export.server";
import { fileStorage } from "~/services/file-storage.server";
import { notFound } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { measurementTypeName } from "~/utils/lookup-name";
import { verifyPrintToken } from "~/utils/print-token.server";

// The page the worker's Chromium prints for truck_measurement_pdf (A4): per truck measurement
// its details, its loads with their four sides and volumes and the total, and the photo of the
// load, in the export owner's language. Opened with a short-lived signed token, never a cookie.

export const handle = { i18n: ["exports", "lookups", "trucks"] };
export const meta: MetaFunction = () => [{ title: "Print" }, { name: "robots", content: "noindex" }];

async function photoDataUri(key: string | null) {
  if (!key) return null;
  if (!(await fileStorage().stat(key))) return null;
  const type = key.endsWith(".png") ? "image/png" : key.endsWith(".webp") ? "image/webp" : "image/jpeg";
  return `data:${type};base64,${(await fileStorage().get(key)).toString("base64")}`;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const token = verifyPrintToken(new URL(request.url).searchParams.get("token"));
  if (!token) notFound();
  const row = await loadExportForJob(db(), token.exportId);
  if (!row || row.organization_id !== token.organizationId || row.kind !== "pdf") notFound();
  const ids = (row.params as Selection).measurement_ids ?? [];
  const org = { organizationId: row.organization_id };
  const unit = isVolumeUnit(row.volume_unit) ? row.volume_unit : "m^3";
  const convert = (v: number) => (unit === "m^3" ? v : convertVolume(v, "m^3", unit));
  const measurements = [];
  for (const id of ids) {
    const m = await loadTruckMeasurementForPrint(db(), org, id);
    if (!m) continue;
    measurements.push({
      id: m.id,
      storageName: m.storage_name,
      plate: m.license_plate,
      shipment: m.shipment_number,
      typeId: m.measurement_type_id,
      takenAt: m.taken_at,
      measuredAt: m.measured_at,
      weight: m.weight,
      weightDensity: m.weight_density,
      loadCount: m.load_count,
      stackedVolume: convert(m.stacked_volume),
      volume: convert(m.volume),
      loads: m.loads.map((l) => ({
        id: l.id,
        index: l.load_index,
        bed: l.load_bed_name,
        height: l.height,
        width: l.load_width,
        length: l.log_length,
        coefficient: l.coefficient,
        stackedVolume: convert(l.stacked_volume),
        volume: convert(l.volume),
      })),
      photo: await photoDataUri(m.photo_popup_key ?? m.photo_optimized_key ?? m.photo_key),
    });
  }
  const organization = await getOrganization(db(), row.organization_id);
  return json({
    organizationName: organization?.name ?? "",
    locale: row.locale ?? "en",
    timeZone: row.time_zone ?? "UTC",
    precision: clampPrecision(row.rounding_precision ?? 2),
    unit,
    printedAt: new Date().toISOString(),
    measurements,
  });
}

export default function PrintTruckMeasurements() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation(["trucks", "exports", "lookups"]);
  const locale = intlLocale(data.locale);
  const date = (v: string | null) => (v ? formatDateTime(v, data.timeZone) : "–");
  const vol = (v: number) => formatVolume(v, { precision: data.precision, unit: data.unit, locale });
  const num = (v: number, d: number) => formatNumber(v, d, locale);
  const unitLabel = t(`lookups:volumeUnits.${data.unit}`);
  return (
    <div className="print-doc" data-print-ready="">
      <style>{PRINT_CSS}</style>
      {data.measurements.map((m) => (
        <article key={m.id} className="print-page" data-testid={`print-truck-${m.id}`}>
          <header className="print-head">
            <div>
              <p className="print-org">{data.organizationName}</p>
              <h1>{t("export.print.title", { id: m.id })}</h1>
            </div>
            <div className="print-head-side">
              <strong>{m.storageName}</strong>
              <span>{date(m.takenAt)}</span>
            </div>
          </header>
          <section className="print-details">
            <h2>{t("export.print.details")}</h2>
            <dl>
              <dt>{t("export.columns.storage")}</dt>
              <dd>{m.storageName ?? "–"}</dd>
              <dt>{t("export.columns.plate")}</dt>
              <dd>{m.plate ?? "–"}</dd>
              <dt>{t("export.columns.shipment")}</dt>
              <dd>{m.shipment ?? "–"}</dd>
              <dt>{t("export.columns.type")}</dt>
              <dd>{measurementTypeName(t, m.typeId)}</dd>
              <dt>{t("export.columns.takenAt")}</dt>
              <dd>{date(m.takenAt)}</dd>
              <dt>{t("export.columns.measuredAt")}</dt>
              <dd>{date(m.measuredAt)}</dd>
              <dt>{t("export.columns.weight")}</dt>
              <dd>{m.weight === null ? "–" : num(m.weight, 0)}</dd>
              <dt>{t("export.columns.weightDensity")}</dt>
              <dd>{m.weightDensity === null ? "–" : num(m.weightDensity, 3)}</dd>
              <dt>{t("export.columns.loads")}</dt>
              <dd>{formatCount(m.loadCount, locale)}</dd>
              <dt>{t("export.columns.stackedVolume", { unit: unitLabel })}</dt>
              <dd data-testid="print-stacked-volume">{vol(m.stackedVolume)}</dd>
              <dt>{t("export.columns.volume", { unit: unitLabel })}</dt>
              <dd data-testid="print-volume">{vol(m.volume)}</dd>
            </dl>
          </section>
          <section className="print-sheet">
            <h2>{t("export.print.loads")}</h2>
            <table>
              <thead>
                <tr>
                  <th>{t("export.columns.loadNo")}</th>
                  <th className="text">{t("export.columns.bed")}</th>
                  <th>{t("export.columns.height")}</th>
                  <th>{t("export.columns.width")}</th>
                  <th>{t("export.columns.length")}</th>
                  <th>{t("export.columns.coefficient")}</th>
                  <th>{t("export.columns.stackedVolume", { unit: unitLabel })}</th>
                  <th>{t("export.columns.volume", { unit: unitLabel })}</th>
                </tr>
              </thead>
              <tbody>
                {m.loads.map((l, i) => (
                  <tr key={l.id}>
                    <td>{i + 1}</td>
                    <td className="text">{l.bed ?? ""}</td>
                    <td>{num(l.height, 2)}</td>
                    <td>{num(l.width, 2)}</td>
                    <td>{num(l.length, 2)}</td>
                    <td>{num(l.coefficient, 2)}</td>
                    <td>{formatVolume(l.stackedVolume, { precision: data.precision, locale })}</td>
                    <td>{formatVolume(l.volume, { precision: data.precision, locale })}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th colSpan={6} className="text">
                    {t("exports:print.total")}
                  </th>
                  <th>{formatVolume(m.stackedVolume, { precision: data.precision, locale })}</th>
                  <th>{formatVolume(m.volume, { precision: data.precision, locale })}</th>
                </tr>
              </tfoot>
            </table>
          </section>
          {m.photo ? (
            <img className="print-photo" src={m.photo} alt={t("export.print.photo")} />
          ) : (
            <p className="print-nophoto">{t("export.print.noPhoto")}</p>
          )}
          <footer className="print-foot">
            <span>{data.organizationName}</span>
            <span>{t("export.print.printed", { date: date(data.printedAt) })}</span>
          </footer>
        </article>
      ))}
    </div>
  );
}

// A4 with the measurement PDF's margins (print+/measurements.tsx): details and up to 20 loads
// fit above the photo, which takes the rest of the page.
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
.print-details dl { display: grid; grid-template-columns: max-content 1fr max-content 1fr; gap: 0.8mm 4mm; margin: 0 0 2mm; }
.print-details dt { color: #555; }
.print-details dd { margin: 0; font-weight: 600; }
.print-sheet table { width: 100%; border-collapse: collapse; font-size: 8.5pt; }
.print-sheet th, .print-sheet td { border: 1px solid #bbb; padding: 0.4mm 1.6mm; text-align: right; }
.print-sheet .text { text-align: left; }
.print-sheet th { background: #f1f5f2; font-weight: 600; }
.print-sheet tr { break-inside: avoid; }
.print-photo { width: 100%; max-height: 120mm; object-fit: contain; display: block; margin-top: 3mm; }
.print-nophoto { border: 1px dashed #999; padding: 6mm; text-align: center; color: #555; margin-top: 3mm; }
h2 { font-size: 10.5pt; margin: 2mm 0 1.5mm; }
.print-foot { display: flex; justify-content: space-between; margin-top: 3mm; padding-top: 1mm; border-top: 1px solid #ddd; color: #777; font-size: 7.5pt; break-inside: avoid; }
`;

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
