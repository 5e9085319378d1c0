import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { createMixedStackReport, getMixedStackReport, listMixedStackReports } from "~/models/mixed-stack-report.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { mixedStackDefaultName } from "~/utils/mixed-stack.server";
import { MixedStackCreateSchema } from "~/utils/schemas/mixed-stack";
import { requireMixedStackUser } from "./__mixed-stack-api.server";

/** GET /mixed_stack_reports: the organisation's reports, last changed first. */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireMixedStackUser(request);
  return json({ data: await listMixedStackReports(db(), ctx) });
}

/** POST /mixed_stack_reports (form data or JSON) {name}: an empty name gets the default name. 201 with the report. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireMixedStackUser(request);
  const body = await parseBody(request, MixedStackCreateSchema);
  const report = await withAppErrors(async () => {
    const id = await createMixedStackReport(db(), ctx, body, await mixedStackDefaultName(ctx));
    return getMixedStackReport(db(), ctx, id);
  });
  return json(report, { status: 201 });
}
