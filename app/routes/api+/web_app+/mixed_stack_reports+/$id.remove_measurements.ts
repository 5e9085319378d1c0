import { json, type ActionFunctionArgs } from "@remix-run/node";
import { getMixedStackReport, removeMixedStackMeasurements } from "~/models/mixed-stack-report.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { MixedStackRemoveSchema } from "~/utils/schemas/mixed-stack";
import { requireMixedStackReport } from "./__mixed-stack-api.server";

/** POST /mixed_stack_reports/{id}/remove_measurements {measurement_ids}: the report after detaching them. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const { ctx, id } = await requireMixedStackReport(request, params.id);
  const body = await parseBody(request, MixedStackRemoveSchema);
  return json(
    await withAppErrors(async () => {
      await removeMixedStackMeasurements(db(), ctx, id, body.measurement_ids);
      return getMixedStackReport(db(), ctx, id);
    }),
  );
}

export function loader() {
  return methodNotAllowed();
}
