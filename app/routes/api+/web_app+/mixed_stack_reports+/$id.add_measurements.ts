import { json, type ActionFunctionArgs } from "@remix-run/node";
import { addMixedStackMeasurements, getMixedStackReport } from "~/models/mixed-stack-report.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { MixedStackAddSchema } from "~/utils/schemas/mixed-stack";
import { requireMixedStackReport } from "./__mixed-stack-api.server";

/**
 * POST /mixed_stack_reports/{id}/add_measurements {category: close_up | far_away, measurement_ids}:
 * the report after attaching. An id that is not one of the organisation's live measurements is 422.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const { ctx, id } = await requireMixedStackReport(request, params.id);
  const body = await parseBody(request, MixedStackAddSchema);
  return json(
    await withAppErrors(async () => {
      await addMixedStackMeasurements(db(), ctx, id, body.category, body.measurement_ids);
      return getMixedStackReport(db(), ctx, id);
    }),
  );
}

export function loader() {
  return methodNotAllowed();
}
