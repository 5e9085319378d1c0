import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { patchContainerMeasurement, serializeContainerMeasurement } from "~/models/container-measurement.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { ContainerMeasurementPatchSchema } from "~/utils/schemas/containers";
import { extraFields, requireContainerMeasurement } from "./__containers-api.server";

/** GET /containers/measurements/{id}?extra_fields=logs,references: {data}. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, m } = await requireContainerMeasurement(request, params.id);
  return json({ data: await serializeContainerMeasurement(db(), ctx, m, extraFields(request)) });
}

/**
 * PATCH /containers/measurements/{id}: comment, custom_fields, locked_at; or logs, logs_removed,
 * references, volume_formula, log_length (409 locked while locked_at is set).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PATCH") methodNotAllowed();
  const { ctx, id } = await requireContainerMeasurement(request, params.id);
  const patch = await parseBody(request, ContainerMeasurementPatchSchema);
  const m = await withAppErrors(() => patchContainerMeasurement(db(), ctx, id, patch));
  return json({ data: await serializeContainerMeasurement(db(), ctx, m, { logs: true, references: true }) });
}
