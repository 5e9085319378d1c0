import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { listReports, serializeReport } from "~/models/report.server";
import { addJob } from "~/services/jobs.server";
import { startReport } from "~/services/reports.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { ReportCreateSchema } from "~/utils/schemas/reports";
import { reportCall, requireReportsUser } from "./__reports-api.server";

/** GET /reports: the organisation's reports and those sent to it (its admins), newest first. */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireReportsUser(request);
  requireOrgAdmin(ctx);
  const rows = await listReports(db(), ctx);
  return json({
    data: rows.map(({ side, counterpart, unseen, ...r }) => ({
      ...r,
      direction: side === "owner" ? "sent" : "received",
      counterpart,
      unseen,
    })),
  });
}

/** POST /reports {name, volume_formula, volume_unit, reported_at, recipient_registration_code?}: 201, generating. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireReportsUser(request);
  requireOrgAdmin(ctx);
  const body = await parseBody(request, ReportCreateSchema);
  const report = await reportCall(() => startReport(db(), ctx, body, addJob));
  return json(await serializeReport(db(), report), { status: 201 });
}
