import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { listHistory } from "~/models/measurement-history.server";
import { isMeasurementKind, MEASUREMENT_KINDS } from "~/models/measurement-kind.server";
import { methodNotAllowed, notFound, parseId } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";

/**
 * GET /measurements/{id}/history?kind=timber|lumber|truck (timber when absent): the
 * measurement's changes, newest first (docs/decisions/024-trust.md). Read only: history has no
 * other verb.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  const id = parseId(params.id);
  const kind = new URL(request.url).searchParams.get("kind") ?? "timber";
  if (!isMeasurementKind(kind)) notFound();
  const owned = await db()
    .selectFrom(MEASUREMENT_KINDS[kind].table)
    .select("id")
    .where("id", "=", id)
    .where("organization_id", "=", ctx.organizationId)
    .executeTakeFirst();
  if (!owned) notFound();
  const entries = await listHistory(db(), ctx, kind, id);
  return json({ data: entries, volume_unit: "m^3" });
}

export function action() {
  return methodNotAllowed();
}
