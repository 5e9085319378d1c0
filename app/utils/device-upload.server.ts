import { json } from "@remix-run/node";
import type { DeviceUploadPlug } from "~/models/measurement-kind.server";
import { fileStorage } from "~/services/file-storage.server";
import { addJob } from "~/services/jobs.server";
import { receiveDeviceUpload, type UploadedPhoto } from "~/services/measurement-uploads.server";
import { PHOTO_LIMITS } from "~/services/photos.server";
import { fieldErrors, methodNotAllowed } from "./api.server";
import { db } from "./db.server";
import { requireDevice } from "./device-auth.server";
import { withAppErrors } from "./errors";

// Device uploads over HTTP, for every measurement kind: one reader of the multipart body and
// one answer. The envelope itself (idempotency, storage access, picture credits, renditions)
// is services/measurement-uploads.server.ts; a kind brings its DeviceUploadPlug.

type Errors = Record<string, string[]>;

/**
 * The one place a device upload's body is read: multipart with `photo` (the image) and
 * `measurement` (JSON, as a field or a file). What could be read, and field errors for what is
 * missing or unreadable (the JSON is still given when only the photo is missing, so the answer
 * can name every bad field at once).
 */
export async function readDeviceUpload(
  request: Request,
): Promise<{ payload?: unknown; photo?: UploadedPhoto; errors: Errors }> {
  const length = Number(request.headers.get("Content-Length") ?? 0);
  if (length > PHOTO_LIMITS.maxBytes + 1024 * 1024) return { errors: { photo: ["timber:errors.photo.too_large"] } };
  if (!(request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data"))
    return { errors: { _: ["timber:errors.multipart"] } };
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return { errors: { _: ["timber:errors.multipart"] } };
  }
  const raw = form.get("measurement");
  let payload: unknown;
  try {
    payload =
      typeof raw === "string" ? JSON.parse(raw) : raw instanceof Blob ? JSON.parse(await raw.text()) : undefined;
  } catch {
    payload = undefined;
  }
  const errors: Errors = {};
  if (payload === undefined) errors.measurement = ["timber:errors.measurementJson"];
  const photo = form.get("photo");
  if (!(photo instanceof Blob) || photo.size === 0) {
    errors.photo = ["timber:errors.photo.missing"];
    return { payload, errors };
  }
  const file = photo as File;
  return {
    payload,
    photo: { data: Buffer.from(await file.arrayBuffer()), fileName: file.name || "photo.jpg" },
    errors,
  };
}

/**
 * POST /api/device/{kind's path}: 201 with the new measurement, 200 with the first one for a
 * retry of its client id, 422 naming every bad field (and writing nothing).
 */
export async function handleDeviceUpload<I extends { client_id: string; storage_id: number }, P>(
  request: Request,
  plug: DeviceUploadPlug<I, P>,
) {
  if (request.method !== "POST") methodNotAllowed();
  const { device } = await requireDevice(request);
  const upload = await readDeviceUpload(request);
  const errors = { ...upload.errors };
  const parsed = upload.payload === undefined ? null : plug.schema.safeParse(upload.payload);
  if (parsed && !parsed.success) Object.assign(errors, fieldErrors(parsed.error));
  const photo = upload.photo;
  if (Object.keys(errors).length || !parsed?.success || !photo)
    return json({ error: "validation_failed", errors }, { status: 422 });
  const result = await withAppErrors(() =>
    receiveDeviceUpload(db(), fileStorage(), addJob, plug, device, parsed.data, photo),
  );
  return json(result.body, { status: result.created ? 201 : 200 });
}
