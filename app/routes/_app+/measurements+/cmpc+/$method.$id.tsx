import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { EditorPage } from "~/components/editor/editor-page";
import { MeasurementEditor } from "~/components/editor/measurement-editor";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { MeasurementTrust } from "~/components/measurements/trust-panels";
import { MeasurementPhoto } from "~/components/timber/measurement-photo";
import type { Species } from "~/domain/log-volume";
import { loadMeasurementTrust } from "~/services/measurement-trust.server";
import { parseId } from "~/utils/api.server";
import { requireAppUser } from "~/utils/auth.server";
import { requireCmpc } from "~/utils/cmpc.server";
import { formulaName, measurementTypeName } from "~/utils/lookup-name";
import { formatsFor } from "~/utils/use-format";
import { loadCmpcDetail } from "./__cmpc-detail.server";

// A shipment's measurement (truck or truck_diameter): its card's details and the photo editor,
// saving through PATCH /api/web_app/measurements/cmpc/{method}/{id}. A truck-diameter measurement
// edits its log ends, references and formula (the server recomputes); a truck measurement its
// references and formula. Without JavaScript the page shows the details and the photo with its
// overlay, and says the editor needs it. docs/decisions/023-shipments.md.

export const handle = { i18n: ["shipments", "timber", "lookups", "trust"] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  requireCmpc(ctx);
  const id = parseId(params.id);
  const data = await loadCmpcDetail(ctx, params.method, id);
  return json({
    ...data,
    // The method is the measurement kind (truck or truck_diameter).
    trust: await loadMeasurementTrust(ctx, data.method, id, new URL(request.url)),
    fmt: {
      locale: ctx.user.locale,
      timeZone: ctx.user.time_zone,
      precision: ctx.user.rounding_precision,
      unit: ctx.user.volume_unit,
    },
  });
}

export default function CmpcMeasurementDetail() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation(["shipments", "timber", "lookups"]);
  const f = formatsFor(data.fmt);
  const m = data.measurement;
  const diameter = data.method === "truck_diameter";
  const back = m.shipmentId ? `/measurements/cmpc?open=${m.shipmentId}` : "/measurements/cmpc";
  const dash = "–";
  return (
    <>
      <EditorPage
        title={t(diameter ? "detail.titleTruckDiameter" : "detail.titleTruck", { id: m.id })}
        back={back}
        data={data}
        hasPhoto={!!(m.photo && m.photoWidth && m.photoHeight)}
        photoSrc={m.photo}
        notice={data.locked ? t("timber:detail.locked") : null}
        fallback={
          <MeasurementPhoto
            src={m.photo}
            width={m.photoWidth}
            height={m.photoHeight}
            logs={data.logs}
            references={data.references}
            alt={t("cards.photoAlt", { id: m.id })}
          />
        }
        editor={({ version, onSaved }) => (
          <MeasurementEditor
            kind="logs"
            modes={diameter ? ["VIEW", "EDIT", "REFERENCE", "LOGS"] : ["VIEW", "REFERENCE"]}
            photo={{ src: m.photo, width: m.photoWidth!, height: m.photoHeight! }}
            loaded={{ logs: data.logs, references: data.references, formula: m.formula }}
            version={version}
            server={{ volumeM3: m.volume, count: m.logsCount }}
            logsPreview={{
              logLengthM: diameter ? m.logLength : null,
              species: (m.speciesKey ?? undefined) as Species | undefined,
              coefficient: null,
            }}
            formulas={data.formulas}
            assortments={[]}
            culls={[]}
            unit={data.fmt.unit}
            precision={data.fmt.precision}
            locale={data.fmt.locale}
            readOnly={data.readOnly}
            saveUrl={`/api/web_app/measurements/cmpc/${data.method}/${m.id}`}
            onSaved={onSaved}
          />
        )}
      />
      <section className="card page-section" aria-label={t("detail.details")} data-testid="cmpc-details">
        <h2 className="card-title">{t("detail.details")}</h2>
        <dl className="info-list">
          <dt>{t("detail.shipment")}</dt>
          <dd>{m.shipment ?? dash}</dd>
          <dt>{t("cards.takenAt")}</dt>
          <dd>{f.dateTime(m.takenAt)}</dd>
          <dt>{t("cards.type")}</dt>
          <dd>{measurementTypeName(t, m.typeId)}</dd>
          <dt>{t("cards.species")}</dt>
          <dd>{m.species ?? dash}</dd>
          <dt>{t(diameter ? "cards.logs" : "cards.loads")}</dt>
          <dd data-testid="detail-logs">{f.count(m.logsCount)}</dd>
          <dt>{t("cards.logLength")}</dt>
          <dd>{m.logLength === null ? dash : f.quantity(m.logLength, 2, "m")}</dd>
          <dt>{t("cards.volume")}</dt>
          <dd data-testid="detail-volume">{f.volume(m.volume)}</dd>
          <dt>{t("cards.formula")}</dt>
          <dd data-testid="detail-formula">{formulaName(t, m.formula)}</dd>
          <dt>{t("cards.trailerPlate")}</dt>
          <dd>{m.plate ?? dash}</dd>
          <dt>{t("cards.loadBed")}</dt>
          <dd>{m.bed ?? dash}</dd>
          <dt>{t("cards.detector")}</dt>
          <dd>{m.detector ?? dash}</dd>
        </dl>
      </section>
      <MeasurementTrust trust={data.trust} f={f} />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
