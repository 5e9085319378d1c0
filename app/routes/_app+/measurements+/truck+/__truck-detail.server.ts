import { parseWithZod } from "@conform-to/zod/v4";
import { json } from "@remix-run/node";
import { getDeviceName } from "~/models/lumber.server";
import { canEditIn, TimberValidationError } from "~/models/measurement-kind.server";
import { screenPhotoUrl } from "~/models/measurement-photo.server";
import { getStorage } from "~/models/storage.server";
import { measurementRoutes, routeCheckpoints, serializeRoute } from "~/models/truck-route.server";
import {
  getTruckLoads,
  getTruckMeasurementRow,
  listTruckCustomFields,
  patchTruckMeasurement,
} from "~/models/truck.server";
import { fieldErrors } from "~/utils/api.server";
import type { AuthContext } from "~/utils/auth-context";
import { db } from "~/utils/db.server";
import { errorResponse, forbidden, notFound, unknownIntent } from "~/utils/errors";
import {
  LOAD_DECIMAL_FIELDS,
  loadsFormErrorKey,
  loadsFormPatch,
  TruckLoadsFormSchema,
  TruckPatchSchema,
} from "~/utils/schemas/truck";
import { redirectWithToast, toastHeader } from "~/utils/toast.server";
import type { SubmissionResult } from "@conform-to/react";

// The truck measurement detail's server side: what the page shows (the measurement, its loads,
// storage, routes with their paths) and the loads editor's post.

/** Routes with at most this many checkpoints each are drawn whole on the detail map. */
const PATH_LIMIT = 5000;

export async function loadTruckDetail(ctx: AuthContext, id: number) {
  const m = await getTruckMeasurementRow(db(), ctx, id);
  if (!m) notFound();
  const [loads, storage, routes, editable, customFields, device] = await Promise.all([
    getTruckLoads(db(), ctx, id),
    getStorage(db(), ctx, m.storage_id),
    measurementRoutes(db(), ctx, id),
    canEditIn(db(), ctx, m),
    listTruckCustomFields(db(), ctx),
    getDeviceName(db(), ctx, m.device_id),
  ]);
  const values = m.custom_fields ?? {};
  const paths = await Promise.all(
    routes.map(async (r) => (await routeCheckpoints(db(), ctx, r.id)).slice(0, PATH_LIMIT)),
  );
  return {
    measurement: m,
    loads,
    storage: storage ? { id: storage.id, name: storage.name } : null,
    device,
    photo: screenPhotoUrl("truck", m),
    routes: routes.map((r, i) => ({
      ...serializeRoute(r),
      path: paths[i].map((p) => [p.latitude, p.longitude] as [number, number]),
    })),
    editable: editable && m.inventory_id === null,
    locked: m.inventory_id !== null,
    customFields: customFields
      .filter((f) => values[f.key] !== undefined && values[f.key] !== null && values[f.key] !== "")
      .map((f) => ({ key: f.key, name: f.name, value: String(values[f.key]) })),
  };
}

/** The loads editor's post (decision 010): the form schema, then the PATCH's own schema and model. */
export async function handleTruckDetailAction(request: Request, ctx: AuthContext, id: number) {
  // Tenancy first: another organisation's id is 404 whatever the form.
  const m = await getTruckMeasurementRow(db(), ctx, id);
  if (!m) notFound();
  // A viewer's post is 403 whatever it holds (the model checks again inside its transaction).
  if (!(await canEditIn(db(), ctx, m))) forbidden();
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent !== "save-loads") unknownIntent();
  // A decimal comma is what many users type; the inputs send it as written without JavaScript.
  for (const [name, v] of [...form.entries()])
    if (typeof v === "string" && (LOAD_DECIMAL_FIELDS.some((f) => name.endsWith(`.${f}`)) || DECIMALS.has(name)))
      form.set(name, v.trim().replace(",", "."));
  const submission = parseWithZod(form, { schema: TruckLoadsFormSchema });
  const failed = async (result: SubmissionResult<string[]>) =>
    json(
      { intent, result },
      { status: 422, headers: { "Set-Cookie": await toastHeader({ type: "error", key: "trucks:loads.saveFailed" }) } },
    );
  if (submission.status !== "success") return failed(submission.reply());
  const { patch, rows, removedRows } = loadsFormPatch(submission.value);
  const asForm = (errors: Record<string, string[]>) =>
    Object.fromEntries(Object.entries(errors).map(([k, v]) => [loadsFormErrorKey(k, rows, removedRows), v]));
  const parsed = TruckPatchSchema.safeParse(patch);
  if (!parsed.success) return failed(submission.reply({ fieldErrors: asForm(fieldErrors(parsed.error)) }));
  try {
    await patchTruckMeasurement(db(), ctx, id, parsed.data);
  } catch (error) {
    if (error instanceof TimberValidationError) return failed(submission.reply({ fieldErrors: asForm(error.errors) }));
    // 403 (viewer), 404, 409 (inventory lock): the error family's answers.
    throw errorResponse(error) ?? error;
  }
  return redirectWithToast(new URL(request.url).pathname, { type: "success", key: "trucks:loads.saved" });
}

const DECIMALS = new Set(["weight", "weight_density"]);
