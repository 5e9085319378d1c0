import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import QRCode from "qrcode";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { loadExportForJob } from "~/models/export.server";
import { getOrganization } from "~/models/organization.server";
import { labelTargets, labelTokens, labelUrl } from "~/models/qr-labels.server";
import { notFound } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { verifyPrintToken } from "~/utils/print-token.server";
import { LABEL_SIZES, QrLabelsSchema } from "~/utils/schemas/qr-labels";

// The page the worker's Chromium prints for qr_labels_pdf: A4 sheets of equal labels edge to
// edge (the chosen size: columns × rows), each with a QR code of the record's public page
// (APP_URL and the page's path) and its name, in the export owner's language. Opened with a
// short-lived signed print token, never with a user's cookie.

export const handle = { i18n: ["exports"] };
export const meta: MetaFunction = () => [{ title: "Print" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const token = verifyPrintToken(new URL(request.url).searchParams.get("token"));
  if (!token) notFound();
  const row = await loadExportForJob(db(), token.exportId);
  if (!row || row.organization_id !== token.organizationId || row.report_type !== "qr_labels_pdf") notFound();
  const selection = QrLabelsSchema.parse(row.params);
  const org = { organizationId: row.organization_id };
  const organization = await getOrganization(db(), row.organization_id);
  if (!organization) notFound();
  const targets = await labelTargets(db(), org, selection);
  const tokens = await labelTokens(db(), org, targets);
  const labels = await Promise.all(
    targets
      .filter((t) => tokens.has(`${t.kind}:${t.id}`))
      .map(async (t) => {
        const url = labelUrl(env().APP_URL, t.kind, tokens.get(`${t.kind}:${t.id}`)!, organization);
        const svg = await QRCode.toString(url, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
        return { key: `${t.kind}:${t.id}`, kind: t.kind, id: t.id, name: t.name, url, svg };
      }),
  );
  return json({ size: selection.label_size, labels });
}

export default function PrintLabels() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("exports");
  const { columns, rows } = LABEL_SIZES[data.size];
  const perSheet = columns * rows;
  const sheets: (typeof data.labels)[] = [];
  for (let i = 0; i < data.labels.length; i += perSheet) sheets.push(data.labels.slice(i, i + perSheet));
  const large = data.size === "a4_2x5";
  return (
    <div className={`labels-doc ${large ? "labels-large" : "labels-small"}`} data-print-ready="">
      <style>{LABELS_CSS}</style>
      {sheets.map((sheet, s) => (
        <section
          key={s}
          className="labels-sheet"
          style={{
            gridTemplateColumns: `repeat(${columns}, 1fr)`,
            gridTemplateRows: `repeat(${rows}, 1fr)`,
          }}
        >
          {sheet.map((l) => (
            <div key={l.key} className="label" data-testid={`label-${l.key}`}>
              {/* The SVG is made by the qrcode package from the link alone. */}
              <div className="label-qr" dangerouslySetInnerHTML={{ __html: l.svg }} />
              <div className="label-text">
                <strong>{l.kind === "measurement" ? t("labels.measurement", { id: l.id }) : l.name}</strong>
                {l.kind === "measurement" ? <span>{l.name}</span> : null}
              </div>
            </div>
          ))}
        </section>
      ))}
    </div>
  );
}

const LABELS_CSS = `
@page { size: A4; margin: 0; }
html, body { background: #fff !important; color: #111; margin: 0; padding: 0; min-height: 0 !important; height: auto !important; }
body { font-family: system-ui, "Noto Sans", sans-serif; }
.toaster { display: none; }
.labels-sheet { width: 210mm; height: 296.5mm; display: grid; overflow: hidden; break-after: page; }
.labels-sheet:last-child { break-after: auto; }
.label { box-sizing: border-box; display: flex; align-items: center; gap: 3mm; padding: 3mm 4mm; overflow: hidden; }
.label-qr { flex: none; }
.label-qr svg { display: block; }
.labels-small .label-qr svg { width: 30mm; height: 30mm; }
.labels-large .label-qr svg { width: 46mm; height: 46mm; }
.label-text { display: flex; flex-direction: column; gap: 1mm; min-width: 0; overflow-wrap: anywhere; }
.labels-small .label-text strong { font-size: 10pt; }
.labels-large .label-text strong { font-size: 14pt; }
.label-text span { font-size: 8pt; color: #444; }
`;

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
