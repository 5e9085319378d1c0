import { json, type ActionFunctionArgs } from "@remix-run/node";
import { enqueuePhotoJob } from "../../jobs/enqueue";
import { PHOTO_LIMITS } from "~/models/measurement-photo.server";
import { createMeasurementFromDevice } from "~/models/timber.server";
import { fileStorage } from "~/services/file-storage.server";
import { addJob } from "~/services/jobs.server";
import { fieldErrors, methodNotAllowed } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { requireDevice } from "~/utils/device-auth.server";
import { DeviceMeasurementSchema } from "~/utils/schemas/timber";
import { timberApi } from "~/utils/timber-api.server";

/**
 * POST /api/device/measurements (multipart): `photo` (the stack photo) and `measurement` (JSON:
 * client_id, taken_at, storage_id, logs, references, ...). 201 with the computed measurement; a
 * retry with the same client_id answers 200 with the first one and creates nothing.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const { device } = await requireDevice(request);
  const length = Number(request.headers.get("Content-Length") ?? 0);
  if (length > PHOTO_LIMITS.maxBytes + 1024 * 1024) {
    return json({ error: "validation_failed", errors: { photo: ["timber:errors.photo.too_large"] } }, { status: 422 });
  }
  if (!(request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
    return json({ error: "validation_failed", errors: { _: ["timber:errors.multipart"] } }, { status: 422 });
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return json({ error: "validation_failed", errors: { _: ["timber:errors.multipart"] } }, { status: 422 });
  }
  const raw = form.get("measurement");
  let payload: unknown;
  try {
    payload = typeof raw === "string" ? JSON.parse(raw) : raw instanceof Blob ? JSON.parse(await raw.text()) : undefined;
  } catch {
    payload = undefined;
  }
  const errors: Record<string, string[]> = {};
  if (payload === undefined) errors.measurement = ["timber:errors.measurementJson"];
  const parsed = payload === undefined ? null : DeviceMeasurementSchema.safeParse(payload);
  if (parsed && !parsed.success) Object.assign(errors, fieldErrors(parsed.error));
  const photo = form.get("photo");
  if (!(photo instanceof Blob) || photo.size === 0) errors.photo = ["timber:errors.photo.missing"];
  if (Object.keys(errors).length || !parsed?.success) return json({ error: "validation_failed", errors }, { status: 422 });

  const file = photo as File;
  const data = Buffer.from(await file.arrayBuffer());
  const result = await timberApi(() => createMeasurementFromDevice(db(), fileStorage(), device, parsed.data, { data, fileName: file.name || "photo.jpg" }));
  if (result.created) await enqueuePhotoJob(result.measurement.id, addJob);
  const m = result.measurement;
  const logs = await db().selectFrom("logs").select(["id", "d", "v", "is_deleted"]).where("measurement_id", "=", m.id).orderBy("id").execute();
  return json(
    {
      measurement: {
        id: m.id,
        client_id: m.client_id,
        storage_id: m.storage_id,
        taken_at: m.taken_at,
        volume: m.volume,
        volume_unit: "m^3",
        logs_count: m.logs_count,
        log_length: m.log_length,
        volume_formula: m.volume_formula,
        coefficient: m.coefficient,
        photo_status: m.photo_status,
        logs: logs.map((l) => ({ id: l.id, d: l.d, v: l.v, isDeleted: l.is_deleted })),
      },
    },
    { status: result.created ? 201 : 200 },
  );
}

export function loader() {
  return methodNotAllowed();
}
