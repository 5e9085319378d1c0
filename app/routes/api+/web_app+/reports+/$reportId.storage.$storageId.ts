import { json, type ActionFunctionArgs } from "@remix-run/node";
import { addJob } from "~/services/jobs.server";
import { addToReport } from "~/services/reports.server";
import { methodNotAllowed, parseId } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { reportCall, requireReportOf } from "./__reports-api.server";

/** PATCH /reports/{reportId}/storage/{storageId}: the storage's live measurements, by the add rules. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PATCH") methodNotAllowed();
  const { ctx, id } = await requireReportOf(request, params.reportId);
  const storageId = parseId(params.storageId);
  const measurements = await reportCall(() => addToReport(db(), ctx, id, { storageId }, addJob));
  return json({ measurements });
}

export function loader() {
  return methodNotAllowed();
}
