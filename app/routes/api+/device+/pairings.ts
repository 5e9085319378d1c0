import { json, type ActionFunctionArgs } from "@remix-run/node";
import { pairDevice, PairingError } from "~/models/device.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { DevicePairingSchema } from "~/utils/schemas/device";

/**
 * POST /api/device/pairings {activation_code, hw_id, name}: the mobile app pairs with an
 * organisation and receives its device token (only now; it is stored hashed).
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const input = await parseBody(request, DevicePairingSchema);
  try {
    const paired = await pairDevice(db(), {
      activationCode: input.activation_code,
      hwId: input.hw_id,
      name: input.name,
    });
    return json(
      {
        device_token: paired.token,
        device: { id: paired.deviceId, name: input.name },
        organization: paired.organization,
      },
      { status: paired.created ? 201 : 200 },
    );
  } catch (error) {
    if (error instanceof PairingError) {
      const status = error.code === "device_locked" ? 403 : error.code === "no_free_device_seats" ? 402 : 404;
      return json({ error: error.code }, { status });
    }
    throw error;
  }
}

export function loader() {
  return methodNotAllowed();
}
