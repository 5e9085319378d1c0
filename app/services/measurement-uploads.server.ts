import { consumePictureCredit } from "~/models/billing.server";
import { deviceStorageIds } from "~/models/device.server";
import { recordCreated } from "~/models/measurement-history.server";
import {
  fail,
  findIdByClientId,
  getStorageRow,
  requireEditor,
  type DeviceUploadPlug,
  type UploadingDevice,
} from "~/models/measurement-kind.server";
import { discardMeasurement, insertPhotoMeasurement } from "~/models/timber.server";
import { enqueuePhotoJob } from "~/services/jobs.server";
import type { AuthContext } from "~/utils/auth-context";
import type { DB } from "~/utils/db.server";
import { inspectPhoto, storeOriginalPhoto } from "./photos.server";
import type { FileStorage } from "./file-storage.server";
import type { AddJobFunction } from "graphile-worker";

// How a photo becomes a measurement, for every measurement kind.
//
// The device upload envelope: the single place a device upload becomes a measurement, whatever
// its kind (the kind plugs in its schema, checks, insert and answer: DeviceUploadPlug). In order:
// a retry with a client id the organisation has seen answers the measurement made the first time
// and creates nothing; the photo is inspected before anything is written; the device must be
// allowed in the storage; the kind checks its payload; then, in one transaction, a picture credit
// is used when the organisation has no plan (billing: refused at zero) and the kind inserts its
// rows; then the original photo is stored and its renditions are queued.

export type UploadedPhoto = { data: Buffer; fileName: string };

export async function receiveDeviceUpload<I extends { client_id: string; storage_id: number }, P>(
  db: DB,
  files: FileStorage,
  addJob: AddJobFunction,
  plug: DeviceUploadPlug<I, P>,
  device: UploadingDevice,
  input: I,
  photo: UploadedPhoto,
): Promise<{ created: boolean; body: Record<string, unknown> }> {
  const ctx = { organizationId: device.organization_id };
  const existing = await findIdByClientId(db, ctx, plug.kind, input.client_id);
  if (existing !== undefined) return { created: false, body: await plug.answer(db, ctx, existing) };

  // Refused before anything is written: not an image, too large, or a decompression bomb.
  const size = await inspectPhoto(photo.data);
  if (!(await deviceStorageIds(db, device)).includes(input.storage_id))
    fail("storage_id", "timber:errors.storageNotAllowed");
  const prepared = await plug.prepare(db, ctx, input, size);

  let id: number;
  try {
    id = await db.transaction().execute(async (trx) => {
      // Without a plan, each upload uses one picture credit (billing); refused at zero.
      await consumePictureCredit(trx, ctx);
      const inserted = await plug.insert(trx, ctx, device, input, prepared);
      // The first line of its history (docs/decisions/024-trust.md), by the device.
      await recordCreated(trx, ctx, { deviceId: device.id }, plug.kind, inserted);
      return inserted;
    });
  } catch (error) {
    // Two retries racing: the unique (organization_id, client_id) index lets one through.
    if (error instanceof Error && /Duplicate entry/.test(error.message)) {
      const again = await findIdByClientId(db, ctx, plug.kind, input.client_id);
      if (again !== undefined) return { created: false, body: await plug.answer(db, ctx, again) };
    }
    throw error;
  }
  await storeOriginalPhoto(db, files, plug.kind, {
    organizationId: ctx.organizationId,
    measurementId: id,
    data: photo.data,
    fileName: photo.fileName,
  });
  await enqueuePhotoJob(id, addJob, plug.kind);
  return { created: true, body: await plug.answer(db, ctx, id) };
}

/**
 * Staff upload a stack photo into a storage from the browser: a timber measurement with the
 * photo, its renditions queued; it is then edited on its page. The photo is checked before the
 * row is written, and a photo that cannot be stored leaves no row behind.
 */
export async function createMeasurementFromPhoto(
  db: DB,
  files: FileStorage,
  addJob: AddJobFunction,
  ctx: AuthContext,
  input: { storageId: number; data: Buffer; fileName: string },
) {
  const storage = await getStorageRow(db, ctx, input.storageId);
  if (!storage) fail("storage_id", "timber:errors.unknownStorage");
  requireEditor(ctx, storage);
  await inspectPhoto(input.data);
  const id = await insertPhotoMeasurement(db, ctx, storage);
  try {
    await storeOriginalPhoto(db, files, "timber", {
      organizationId: ctx.organizationId,
      measurementId: id,
      data: input.data,
      fileName: input.fileName,
    });
  } catch (error) {
    await discardMeasurement(db, ctx, id);
    throw error;
  }
  await enqueuePhotoJob(id, addJob, "timber");
  return id;
}
