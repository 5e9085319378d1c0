import {
  getDeviceName,
  getLumberMeasurementRow,
  getLumberProductSize,
  getPlanks,
  listLumberCustomFields,
} from "~/models/lumber.server";
import { canEditIn } from "~/models/measurement-kind.server";
import { screenPhotoUrl } from "~/models/measurement-photo.server";
import { getStorage } from "~/models/storage.server";
import type { AuthContext } from "~/utils/auth-context";
import { db } from "~/utils/db.server";
import { notFound } from "~/utils/errors";

// The lumber measurement detail screen's data (read-only), shaped so the editor screen can load
// the same thing: the measurement, its product, every plank (removed ones flagged), whether the
// caller may edit it, whether an inventory locks it, and the photo.

export async function loadLumberDetail(ctx: AuthContext, id: number) {
  const m = await getLumberMeasurementRow(db(), ctx, id);
  if (!m) notFound();
  const [storage, planks, product, device, customFields, editable] = await Promise.all([
    getStorage(db(), ctx, m.storage_id),
    getPlanks(db(), ctx, id),
    getLumberProductSize(db(), ctx, m.lumber_product_id),
    getDeviceName(db(), ctx, m.device_id),
    listLumberCustomFields(db(), ctx),
    canEditIn(db(), ctx, m),
  ]);
  const values = m.custom_fields ?? {};
  return {
    measurement: {
      id: m.id,
      storage_id: m.storage_id,
      device_id: m.device_id,
      lumber_product_id: m.lumber_product_id,
      measurement_type_id: m.measurement_type_id,
      taken_at: m.taken_at,
      created_at: m.created_at,
      updated_at: m.updated_at,
      latitude: m.latitude,
      longitude: m.longitude,
      plank_count: m.plank_count,
      /** m³ */
      volume: m.volume,
      comment: m.comment,
      inventory_id: m.inventory_id,
    },
    /** Plank sizes in millimetres; null when the measurement has no product (volume not computable). */
    product,
    planks: planks.map((p) => ({
      id: p.id,
      x: p.x,
      y: p.y,
      width: p.width,
      height: p.height,
      is_deleted: p.is_deleted,
      modified_at: p.modified_at,
    })),
    editable,
    locked: m.inventory_id !== null,
    photo:
      m.photo_key && m.photo_width && m.photo_height
        ? {
            url: screenPhotoUrl("lumber", m)!,
            width: m.photo_width,
            height: m.photo_height,
            fileName: m.photo_file_name,
          }
        : null,
    storage: storage ? { id: storage.id, name: storage.name } : null,
    device,
    customFields: customFields
      .filter((f) => values[f.key] !== undefined && values[f.key] !== null && values[f.key] !== "")
      .map((f) => ({
        key: f.key,
        name: f.name,
        data_type: f.data_type,
        value: values[f.key] as string | number | boolean,
      })),
  };
}

export type LumberDetail = Awaited<ReturnType<typeof loadLumberDetail>>;
