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
import { errorResponse, notFound, unknownIntent } from "~/utils/errors";
import { TruckPatchSchema } from "~/utils/schemas/truck";
import { redirectWithToast, toastHeader } from "~/utils/toast.server";

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

const typedValues = (form: FormData): Record<string, string> => {
  const values: Record<string, string> = {};
  for (const [k, v] of form) if (k !== "intent" && typeof v === "string") values[k] = v;
  return values;
};

const num = (v: FormDataEntryValue | null) => {
  if (v === null || typeof v !== "string" || v.trim() === "") return undefined;
  const n = Number(v.replace(",", "."));
  return Number.isFinite(n) ? n : v;
};

/** The loads editor's form, read into the PATCH payload (the one schema, TruckPatchSchema). */
export function loadsFormPayload(form: FormData) {
  const count = Math.min(Number(form.get("load_count")) || 0, 50);
  const loads: Array<Record<string, unknown>> = [];
  const removed: unknown[] = [];
  for (let i = 0; i <= count; i++) {
    const p = (k: string) => form.get(`loads[${i}].${k}`);
    const id = num(p("id"));
    if (id !== undefined && p("remove") === "on") {
      removed.push(id);
      continue;
    }
    const load: Record<string, unknown> = {
      height: num(p("height")),
      load_width: num(p("load_width")),
      log_length: num(p("log_length")),
      coefficient: num(p("coefficient")),
    };
    const bed = p("load_bed_name");
    if (typeof bed === "string") load.load_bed_name = bed;
    const isNew = id === undefined;
    // The empty "new load" row adds nothing.
    if (isNew && Object.values(load).every((v) => v === undefined || v === "")) continue;
    if (!isNew) load.id = id;
    loads.push(Object.fromEntries(Object.entries(load).filter(([, v]) => v !== undefined)));
  }
  const payload: Record<string, unknown> = { loads, loads_removed: removed };
  const type = num(form.get("measurement_type_id"));
  if (type !== undefined) payload.measurement_type_id = type;
  for (const k of ["weight", "weight_density"] as const) {
    const v = form.get(k);
    if (typeof v === "string") payload[k] = v.trim() === "" ? null : num(v);
  }
  return payload;
}

export async function handleTruckDetailAction(request: Request, ctx: AuthContext, id: number) {
  // Tenancy first: another organisation's id is 404 whatever the form.
  if (!(await getTruckMeasurementRow(db(), ctx, id))) notFound();
  const form = await request.formData();
  if (form.get("intent") !== "save-loads") unknownIntent();
  const back = new URL(request.url).pathname;
  const failed = async (errors: Record<string, string[]>) =>
    json(
      // Typed values go back with the errors; this form is still to move to conform (decision 010).
      { errors, values: typedValues(form) },
      { status: 422, headers: { "Set-Cookie": await toastHeader({ type: "error", key: "trucks:loads.saveFailed" }) } },
    );
  const parsed = TruckPatchSchema.safeParse(loadsFormPayload(form));
  if (!parsed.success) return failed(fieldErrors(parsed.error));
  try {
    await patchTruckMeasurement(db(), ctx, id, parsed.data);
  } catch (error) {
    if (error instanceof TimberValidationError) return failed(error.errors);
    // 403 (viewer), 404, 409 (inventory lock): the error family's answers.
    throw errorResponse(error) ?? error;
  }
  return redirectWithToast(back, { type: "success", key: "trucks:loads.saved" });
}
