import { json, type ActionFunctionArgs } from "@remix-run/node";
import { addJob } from "~/services/jobs.server";
import { addToReport } from "~/services/reports.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { ReportAddMeasurementsSchema } from "~/utils/schemas/reports";
import { reportCall, requireReportOf } from "./__reports-api.server";

/**
 * PATCH /reports/{id}/add_measurements {measurement_ids}: measurements in an inventory are skipped;
 * one without an assortment whose logs lack assortment or cull stops everything (422
 * missing_assortment). Answer: measurements.added_measurements and .not_added_measurements.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PATCH") methodNotAllowed();
  const { ctx, id } = await requireReportOf(request, params.id);
  const body = await parseBody(request, ReportAddMeasurementsSchema);
  const measurements = await reportCall(() =>
    addToReport(db(), ctx, id, { measurementIds: body.measurement_ids }, addJob),
  );
  return json({ measurements });
}

export function loader() {
  return methodNotAllowed();
}
