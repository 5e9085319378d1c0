import { formatNumber } from "~/domain";
import { intlLocale } from "~/i18n";
import { publicMeasurementPhotoSource } from "~/models/public-measurement.server";
import { fileStorage } from "~/services/file-storage.server";
import { measurementPicture } from "~/services/measurement-picture.server";
import { db } from "~/utils/db.server";
import { publicVolume } from "~/utils/public-format";
import { loadPublicMeasurement } from "~/utils/public-pages.server";
import { publicFile, publicNotFound } from "~/utils/public-route.server";
import { formatsFor } from "~/utils/use-format";
import type { LoaderFunctionArgs } from "@remix-run/node";

/**
 * /public_measurement/{token}.jpeg: the shared measurement's photo with its logs drawn on it and
 * a caption (volume, logs, formula, log length, time, storage) burnt in, in the page's language
 * (?lng) and the sharer's time zone. 404 without a photo.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { view, grant, language, t } = await loadPublicMeasurement(request, context, params.token);
  const source = await publicMeasurementPhotoSource(db(), grant);
  const photoKey = source?.photo_optimized_key ?? source?.photo_key;
  if (!source || !photoKey || !source.photo_width || !source.photo_height) publicNotFound();
  const locale = intlLocale(language);
  const f = formatsFor({ locale: language, timeZone: view.time_zone, precision: 3, unit: "m^3" });
  const key = await measurementPicture(
    fileStorage(),
    { organizationId: grant.organizationId, measurementId: view.id, updatedAt: source.updated_at },
    {
      photoKey,
      photoWidth: source.photo_width,
      photoHeight: source.photo_height,
      logs: view.logs,
      label: (d) => formatNumber(d, 1, locale, false),
      caption: [
        `${publicVolume(view.volume.value, view.volume.unit, locale)} · ${t("timber:logsCount", { count: view.logs_count })}`,
        [
          view.volume_formula.name,
          view.log_length ? f.quantity(view.log_length.value, 2, "m") : null,
          f.dateTime(view.taken_at),
        ]
          .filter(Boolean)
          .join(" · "),
        `${view.storage.name} · ${t("timber:measurement", { id: view.id })} · ${view.organization.name}`,
      ],
    },
  );
  return publicFile(key, { fileName: `measurement-${view.id}.jpeg` });
}
