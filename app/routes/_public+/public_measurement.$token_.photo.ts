import { publicMeasurementPhotoSource, publicPhotoKey } from "~/models/public-measurement.server";
import { db } from "~/utils/db.server";
import { publicFile, requirePublicGrant } from "~/utils/public-route.server";
import type { LoaderFunctionArgs } from "@remix-run/node";

/** /public_measurement/{token}/photo: the photo the shared measurement's page draws its logs over. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const grant = await requirePublicGrant(request, context, params.token, "measurement", { opened: false });
  const source = await publicMeasurementPhotoSource(db(), grant);
  return publicFile(source ? publicPhotoKey(source) : null);
}
