import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getMeasurementRow, patchMeasurement, serializeMeasurement } from "~/models/timber.server";
import { methodNotAllowed, notFound, parseBody, parseId } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { MeasurementPatchSchema } from "~/utils/schemas/timber";
import { listParam } from "~/utils/timber-api.server";

/** GET /measurements/{id}?fields=a,b&extra_fields=logs,references,logs_sheet,...: {data}. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  const id = parseId(params.id);
  const m = await getMeasurementRow(db(), ctx, id);
  if (!m) notFound();
  const url = new URL(request.url);
  const data = await serializeMeasurement(db(), ctx, m, {
    fields: listParam(url.searchParams.get("fields")),
    extra: listParam(url.searchParams.get("extra_fields")),
  });
  return json({ data });
}

/** PATCH /measurements/{id}: one of the spec's variants; the server recomputes the volume. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PATCH") methodNotAllowed();
  const ctx = await requireApiUser(request);
  const id = parseId(params.id);
  // Tenancy before validation: another organisation's id is 404 whatever the body.
  if (!(await getMeasurementRow(db(), ctx, id))) notFound();
  const patch = await parseBody(request, MeasurementPatchSchema);
  const m = await withAppErrors(() => patchMeasurement(db(), ctx, id, patch));
  const extra = patch.logs || patch.logs_removed || patch.references ? ["logs", "references"] : [];
  return json({ data: await serializeMeasurement(db(), ctx, m, { extra }) });
}
