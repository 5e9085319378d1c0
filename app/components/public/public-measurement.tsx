import { useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { MeasurementPhoto } from "~/components/timber/measurement-photo";
import { MeasurementTables, Metrology } from "~/components/timber/measurement-tables";
import type { PublicMeasurementView } from "~/models/public-measurement.server";
import type { RootLoader } from "~/root";
import { publicRowVolume, publicVolume } from "~/utils/public-format";
import { formatsFor } from "~/utils/use-format";
import { PublicLocation } from "./public-location";
import type { SerializeFrom } from "@remix-run/node";

/**
 * A shared timber measurement as its recipient sees it: the photo with every log (the detail
 * page's overlay), the picture to download, the figures, and the detail page's logs sheet,
 * assortment and cull tables. The vmu form adds the metrology checks with their values.
 */
export function PublicMeasurement({ view, vmu }: { view: SerializeFrom<PublicMeasurementView>; vmu: boolean }) {
  const { t } = useTranslation(["public", "timber", "lookups", "trust"]);
  const language = useRouteLoaderData<RootLoader>("root")?.locale ?? "en";
  const f = formatsFor({ locale: language, timeZone: view.time_zone, precision: 3, unit: "m^3" });
  const rowVolume = (v: number) => publicRowVolume(v, view.logs_sheet.summary.volume_unit, f.locale);
  const dash = "—";
  return (
    <article className="public-record" data-testid="public-measurement">
      <header className="public-title">
        <p className="muted" data-testid="shared-by">
          {t("frame.sharedBy", { organization: view.organization.name })}
        </p>
        <h1 data-testid="public-title">{t("timber:measurement", { id: view.id })}</h1>
        <p className="muted">
          {view.storage.name} · {f.dateTime(view.taken_at)}
        </p>
      </header>

      <div className="public-photo">
        {view.photo ? (
          <>
            <MeasurementPhoto
              src={view.photo.url}
              width={view.photo.width}
              height={view.photo.height}
              // The overlay colours a log red once a person changed it; the public view says only whether.
              logs={view.logs.map((l, i) => ({ ...l, id: i, is_deleted: false, modified_at: l.modified ? "1" : null }))}
              references={view.references}
              alt={t("timber:photoAlt", { id: view.id })}
            />
            <a
              className="btn btn-primary public-download"
              href={`${view.jpeg_url}?lng=${language}`}
              download={`measurement-${view.id}.jpeg`}
              data-testid="download-jpeg"
            >
              {t("measurement.download")}
            </a>
          </>
        ) : (
          <div className="photo-placeholder" data-testid="photo-placeholder">
            {view.manual ? t("timber:detail.manualNoPhoto") : t("timber:noPhoto")}
          </div>
        )}
      </div>

      <dl className="public-figures">
        <div>
          <dt>{t("timber:table.volume")}</dt>
          <dd data-testid="public-volume">{publicVolume(view.volume.value, view.volume.unit, f.locale)}</dd>
        </div>
        <div>
          <dt>{t("timber:table.logs")}</dt>
          <dd data-testid="public-logs">{f.count(view.logs_count)}</dd>
        </div>
        <div>
          <dt>{t("timber:detail.averageDiameter")}</dt>
          <dd data-testid="public-average-diameter">
            {view.average_diameter === null ? dash : f.diameter(view.average_diameter)}
          </dd>
        </div>
        <div>
          <dt>{t("measurement.logLength")}</dt>
          <dd data-testid="public-log-length">{view.log_length ? f.quantity(view.log_length.value, 2, "m") : dash}</dd>
        </div>
      </dl>

      <section className="card">
        <h2 className="card-title">{t("measurement.details")}</h2>
        <dl className="info-list public-details">
          <dt>{t("timber:fields.woodType")}</dt>
          <dd data-testid="public-species">{view.wood_type ?? dash}</dd>
          <dt>{t("timber:fields.woodQuality")}</dt>
          <dd>{view.wood_quality ?? dash}</dd>
          <dt>{t("timber:fields.assortment")}</dt>
          <dd data-testid="public-assortment">{view.assortment ?? dash}</dd>
          <dt>{t("timber:fields.formula")}</dt>
          <dd data-testid="public-formula">{view.volume_formula.name}</dd>
          <dt>{t("timber:fields.takenAt")}</dt>
          <dd data-testid="public-taken-at">{f.dateTime(view.taken_at)}</dd>
          <dt>{t("timber:fields.storage")}</dt>
          <dd data-testid="public-storage">{view.storage.name}</dd>
          {view.photo_sha256 ? (
            <>
              <dt>{t("trust:photo.sha256")}</dt>
              <dd>
                <code className="hash" data-testid="public-photo-sha256">
                  {view.photo_sha256}
                </code>
                <div className="muted small">{t("trust:photo.derived")}</div>
              </dd>
            </>
          ) : null}
          <dt>{t("timber:detail.location")}</dt>
          <dd>
            <PublicLocation
              latitude={view.latitude ?? view.storage.latitude}
              longitude={view.longitude ?? view.storage.longitude}
              format={f.coordinate}
            />
          </dd>
        </dl>
        <p className="muted small">{t("frame.timesIn", { timeZone: view.time_zone })}</p>
      </section>

      {vmu ? <Metrology metrology={view.metrology ?? null} values /> : null}

      {view.manual ? null : (
        <MeasurementTables
          summary={{
            unit: view.logs_sheet.summary.volume_unit,
            logCount: view.logs_sheet.summary.total_logs,
            logsSheet: view.logs_sheet.logs.map((r) => ({
              diameterCm: r.diameter,
              lengthM: r.log_length,
              count: r.logs_count,
              volume: r.volume,
            })),
            // The tables name rows through a list of ids; the public view has names only.
            byAssortment: view.by_assortment.map((r, i) => ({
              assortmentId: r.name === null ? null : i + 1,
              count: r.logs_count,
              volume: r.volume,
            })),
            byCull: view.by_cull.map((r, i) => ({ cullId: i + 1, count: r.logs_count, volume: r.volume })),
          }}
          lookups={{
            assortments: view.by_assortment.map((r, i) => ({ id: i + 1, name: r.name ?? "" })),
            culls: view.by_cull.map((r, i) => ({ id: i + 1, name: r.name })),
          }}
          fmtVolume={rowVolume}
        />
      )}
    </article>
  );
}
