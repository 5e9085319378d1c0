import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { serializeReport } from "~/models/report.server";
import { methodNotAllowed } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { requireReportOf } from "./__reports-api.server";

/** GET /reports/{id}: the report with its tallies (logs, characteristics, culls); the recipient's admins too. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { report } = await requireReportOf(request, params.id);
  return json(await serializeReport(db(), report));
}

export function action() {
  return methodNotAllowed();
}
