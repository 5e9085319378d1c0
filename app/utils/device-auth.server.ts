import { json } from "@remix-run/node";
import type { Device } from "#db/schema";
import { findDeviceByToken, touchDevice } from "~/models/device.server";
import { bearerToken } from "./auth.server";
import { db } from "./db.server";
import { noteOrganization } from "./request-context.server";

export interface DeviceContext {
  device: Device;
  organizationId: number;
}

/** /api/device calls: the device token as a bearer token. 401 unknown, 403 locked. */
export async function requireDevice(request: Request): Promise<DeviceContext> {
  const device = await findDeviceByToken(db(), bearerToken(request));
  if (!device) throw json({ error: "invalid_token" }, { status: 401 });
  if (device.locked) throw json({ error: "device_locked" }, { status: 403 });
  // At most one write a minute per device: last_used is for the devices list, not an audit log.
  if (!device.last_used || Date.now() - device.last_used.getTime() > 60_000) await touchDevice(db(), device.id);
  noteOrganization(device.organization_id);
  return { device, organizationId: device.organization_id };
}
