import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import {
  getCmpcTruckRow,
  getTruckDiameterRow,
  patchTruckCmpc,
  patchTruckDiameter,
  serializeTruckDiameter,
} from "~/models/shipment.server";
import { getTruckMeasurementRow, serializeTruckMeasurement } from "~/models/truck.server";
import { methodNotAllowed, notFound, parseBody, parseId } from "~/utils/api.server";
import type { AuthContext } from "~/utils/auth-context";
import { requireApiUser } from "~/utils/auth.server";
import { requireCmpc } from "~/utils/cmpc.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import {
  CMPC_METHODS,
  TruckCmpcPatchSchema,
  TruckDiameterPatchSchema,
  type CmpcMethod,
} from "~/utils/schemas/shipment";

function methodOf(value: string | undefined): CmpcMethod {
  if (!CMPC_METHODS.includes(value as CmpcMethod)) notFound();
  return value as CmpcMethod;
}

async function answer(ctx: AuthContext, method: CmpcMethod, id: number) {
  if (method === "truck_diameter") {
    const m = await getTruckDiameterRow(db(), ctx, id);
    if (!m) notFound();
    return { data: await serializeTruckDiameter(db(), ctx, m) };
  }
  const m = await getTruckMeasurementRow(db(), ctx, id);
  const cmpc = await getCmpcTruckRow(db(), ctx, id);
  if (!m || !cmpc) notFound();
  return {
    data: { ...(await serializeTruckMeasurement(db(), ctx, m)), references: cmpc.reference_lines ?? [] },
  };
}

/** GET /measurements/cmpc/{truck|truck_diameter}/{id}: {data}. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  requireCmpc(ctx);
  return json(await answer(ctx, methodOf(params.method), parseId(params.id)));
}

/**
 * PATCH /measurements/cmpc/truck_diameter/{id} {logs, logs_removed, references, volume_formula}
 * (the server recomputes every log and the total) and PATCH /measurements/cmpc/truck/{id}
 * {references, volume_formula}. Answer {data}; 422 with field errors; 403 for a viewer.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "PATCH") methodNotAllowed();
  const ctx = await requireApiUser(request);
  requireCmpc(ctx);
  const method = methodOf(params.method);
  const id = parseId(params.id);
  // Tenancy before validation: another organisation's id is 404 whatever the body.
  await answer(ctx, method, id);
  if (method === "truck_diameter") {
    const patch = await parseBody(request, TruckDiameterPatchSchema);
    await withAppErrors(() => patchTruckDiameter(db(), ctx, id, patch));
  } else {
    const patch = await parseBody(request, TruckCmpcPatchSchema);
    await withAppErrors(() => patchTruckCmpc(db(), ctx, id, patch));
  }
  return json(await answer(ctx, method, id));
}
