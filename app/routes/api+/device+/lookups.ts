import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { listDeviceLookups } from "~/models/timber-lookups.server";
import { db } from "~/utils/db.server";
import { requireDevice } from "~/utils/device-auth.server";
import { getLanguage, i18nServer } from "~/utils/i18n.server";

/**
 * GET /api/device/lookups: the master data the app needs to fill a measurement in. Built-in
 * species and qualities come named in the app's language (Accept-Language; English without it).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { organizationId } = await requireDevice(request);
  const t = await i18nServer.getFixedT(await getLanguage(request), "lookups");
  return json(await listDeviceLookups(db(), { organizationId }, t));
}
