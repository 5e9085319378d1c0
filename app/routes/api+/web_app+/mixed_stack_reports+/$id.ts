import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getMixedStackReport, updateMixedStackReport } from "~/models/mixed-stack-report.server";
import { methodNotAllowed, notFound, parseBody } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { MixedStackPatchSchema } from "~/utils/schemas/mixed-stack";
import { requireMixedStackReport } from "./__mixed-stack-api.server";

/** GET /mixed_stack_reports/{id}: the report with its figures and both groups. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, id } = await requireMixedStackReport(request, params.id);
  const report = await getMixedStackReport(db(), ctx, id);
  if (!report) notFound();
  return json(report);
}

/** PATCH /mixed_stack_reports/{id} (form data or JSON) {name, total_delivery_tons}: the report after the change. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PATCH") methodNotAllowed();
  const { ctx, id } = await requireMixedStackReport(request, params.id);
  const body = await parseBody(request, MixedStackPatchSchema);
  return json(
    await withAppErrors(async () => {
      await updateMixedStackReport(db(), ctx, id, body);
      return getMixedStackReport(db(), ctx, id);
    }),
  );
}
