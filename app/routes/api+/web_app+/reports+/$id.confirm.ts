import { json, type ActionFunctionArgs } from "@remix-run/node";
import { confirmReport, getReportById, serializeReport } from "~/models/report.server";
import { methodNotAllowed } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { reportCall, requireReportOf } from "./__reports-api.server";

/** PATCH /reports/{id}/confirm: one way, by the recipient's admins (the owner's when sent to nobody). 409 twice. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PATCH") methodNotAllowed();
  const { ctx, id } = await requireReportOf(request, params.id);
  await reportCall(() => confirmReport(db(), ctx, id));
  return json(await serializeReport(db(), (await getReportById(db(), id))!));
}

export function loader() {
  return methodNotAllowed();
}
