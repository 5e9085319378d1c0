import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getLumberMeasurementRow, patchLumberMeasurement, serializeLumberMeasurement } from "~/models/lumber.server";
import { methodNotAllowed, notFound, parseBody, parseId } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { LumberPatchSchema } from "~/utils/schemas/lumber";
import { listParam } from "~/utils/timber-api.server";

/** GET /lumber_measurements/{id}?fields=a,b&extra_fields=planks (or logs),custom_fields,comment: {data}. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  const id = parseId(params.id);
  const m = await getLumberMeasurementRow(db(), ctx, id);
  if (!m) notFound();
  const url = new URL(request.url);
  const data = await serializeLumberMeasurement(db(), ctx, m, {
    fields: listParam(url.searchParams.get("fields")),
    extra: listParam(url.searchParams.get("extra_fields")),
  });
  return json({ data });
}

/** PATCH /lumber_measurements/{id} {planks, planks_removed}: the server recounts and recomputes the volume. */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PATCH") methodNotAllowed();
  const ctx = await requireApiUser(request);
  const id = parseId(params.id);
  // Tenancy before validation: another organisation's id is 404 whatever the body.
  if (!(await getLumberMeasurementRow(db(), ctx, id))) notFound();
  const patch = await parseBody(request, LumberPatchSchema);
  const m = await withAppErrors(() => patchLumberMeasurement(db(), ctx, id, patch));
  return json({ data: await serializeLumberMeasurement(db(), ctx, m, { extra: ["planks"] }) });
}
