import { json, type ActionFunctionArgs } from "@remix-run/node";
import {
  deleteDevice,
  DeviceAccessError,
  getDevice,
  renameDevice,
  serializeDevice,
  setDeviceAccess,
} from "~/models/device-admin.server";
import { methodNotAllowed, notFound, parseBody, parseId } from "~/utils/api.server";
import { requireApiUser, requireFeature, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { DevicePatchSchema } from "~/utils/schemas/device";

/** PATCH /api/web_app/devices/{id}: device{name, affiliation} or device{storage_ids, default_storage_id}; DELETE removes it. */
export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  const id = parseId(params.id);
  if (request.method === "DELETE") {
    if (!(await deleteDevice(db(), ctx, id))) notFound();
    return new Response(null, { status: 204 });
  }
  if (request.method !== "PATCH") methodNotAllowed();
  if (!(await getDevice(db(), ctx, id))) notFound();
  const { device } = await parseBody(request, DevicePatchSchema);
  const { storage_ids, default_storage_id, ...names } = device;
  if (Object.keys(names).length) await renameDevice(db(), ctx, id, names);
  if (storage_ids !== undefined || default_storage_id !== undefined) {
    // Choosing particular storages is the storage_access_management feature; "all" always works.
    if (storage_ids && storage_ids.length) requireFeature(ctx, "storage_access_management");
    const current = (await getDevice(db(), ctx, id))!;
    try {
      await setDeviceAccess(db(), ctx, id, {
        storage_ids: storage_ids === undefined ? current.storage_ids : storage_ids,
        default_storage_id: default_storage_id === undefined ? current.default_storage_id : default_storage_id,
      });
    } catch (error) {
      if (!(error instanceof DeviceAccessError)) throw error;
      return json(
        {
          error: "validation_failed",
          errors: { [`device.${error.field}`]: [`accounts:devices.invalid.${error.field}`] },
        },
        { status: 422 },
      );
    }
  }
  return json(serializeDevice((await getDevice(db(), ctx, id))!));
}

export function loader() {
  return methodNotAllowed();
}
