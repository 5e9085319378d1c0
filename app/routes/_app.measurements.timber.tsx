import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatVolume } from "~/domain/format";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { EmptyState } from "~/components/ui/empty-state";
import { Icon } from "~/components/ui/icon";
import { countMeasurements, listRecentMeasurements, photoUrl } from "~/models/measurement.server";
import { updateAccountPreferences } from "~/models/user.server";
import { requireUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { intlLocale } from "~/i18n";
import { useRealtime } from "~/utils/use-realtime";

// The timber measurements of the organisation, newest first. The full dashboard (filters,
// storages, map) replaces this list with the timber measuring issue.
const PAGE_SIZE = 50;

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireUser(request);
  if (ctx.user.recent_measurement_mode !== "timber") {
    await updateAccountPreferences(db(), ctx.userId, { recent_measurement_mode: "timber" });
  }
  const [rows, total] = await Promise.all([
    listRecentMeasurements(db(), ctx, { limit: PAGE_SIZE }),
    countMeasurements(db(), ctx),
  ]);
  return json({
    organizationId: ctx.organizationId,
    precision: ctx.user.rounding_precision,
    locale: ctx.user.locale,
    timeZone: ctx.user.time_zone,
    total,
    measurements: rows.map((m) => ({
      id: m.id,
      takenAt: m.taken_at,
      storageName: m.storage_name,
      logsCount: m.logs_count,
      volume: m.volume,
      logLength: m.log_length,
      formula: m.volume_formula,
      photoStatus: m.photo_status,
      thumbnailUrl: m.photo_thumbnail_key ? photoUrl(m.id, "thumbnail") : null,
    })),
  });
}

export default function TimberMeasurements() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation(["measurements", "lookups"]);
  const revalidator = useRevalidator();
  // A worker finished a photo: fetch the list again so its thumbnail appears.
  useRealtime(`organization:${data.organizationId}`, "measurement-photo-processed", () => revalidator.revalidate());

  const dateFormat = new Intl.DateTimeFormat(intlLocale(data.locale), { dateStyle: "short", timeStyle: "short", timeZone: data.timeZone });

  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title">{t("timber.title")}</h1>
        <span className="muted" data-testid="measurement-count">{t("timber.count", { count: data.total })}</span>
      </div>
      {data.measurements.length === 0 ? (
        <EmptyState title={t("timber.emptyTitle")} text={t("timber.emptyText")} />
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="measurements-table">
            <thead>
              <tr>
                <th>{t("timber.photo")}</th>
                <th>{t("timber.id")}</th>
                <th>{t("timber.storage")}</th>
                <th>{t("timber.takenAt")}</th>
                <th className="num">{t("timber.logs")}</th>
                <th className="num">{t("timber.logLength")}</th>
                <th>{t("timber.formula")}</th>
                <th className="num">{t("timber.volume")}</th>
              </tr>
            </thead>
            <tbody>
              {data.measurements.map((m) => (
                <tr key={m.id} data-testid={`measurement-${m.id}`}>
                  <td>
                    {m.thumbnailUrl ? (
                      <img className="thumb" src={m.thumbnailUrl} alt={t("timber.photoAlt", { id: m.id })} width={80} height={80} loading="lazy" />
                    ) : (
                      <span className="thumb thumb-pending" title={t(m.photoStatus === 3 ? "timber.photoFailed" : "timber.photoProcessing")} data-testid="thumb-pending">
                        <Icon name="photo" />
                      </span>
                    )}
                  </td>
                  <td>#{m.id}</td>
                  <td>{m.storageName}</td>
                  <td>{dateFormat.format(new Date(m.takenAt))}</td>
                  <td className="num">{m.logsCount}</td>
                  <td className="num">{m.logLength ?? "-"}</td>
                  <td>{t(`lookups:formulas.${m.formula}.name`)}</td>
                  <td className="num">{formatVolume(m.volume, { precision: data.precision, unit: "m^3", locale: intlLocale(data.locale) })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
