import { openReport, reportThumbnailKey } from "~/models/report.server";
import { fileResponse, fileStorage } from "~/services/file-storage.server";
import { notFound, parseId } from "~/utils/api.server";
import { requireApiUser, requireFeature } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import type { LoaderFunctionArgs } from "@remix-run/node";

/**
 * /reports/{id}/thumbnails/{measurementId}: the thumbnail of a measurement in the report, for
 * whoever may read the report (the recipient's admins included, who cannot open the sender's
 * /files). Any other measurement is 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  const id = parseId(params.id);
  const measurementId = parseId(params.measurementId);
  const { report } = await withAppErrors(() => openReport(db(), ctx, id));
  requireFeature(ctx, "reports");
  const key = await reportThumbnailKey(db(), report, measurementId);
  const response = key ? await fileResponse(fileStorage(), key, { cacheControl: "private, no-store" }) : null;
  if (!response) notFound();
  return response;
}
