import { json } from "@remix-run/node";
import { requireDevice } from "~/utils/device-auth.server";

// Unknown device API paths answer JSON 404 (after authentication, so nothing leaks).
async function notFound({ request }: { request: Request }) {
  await requireDevice(request);
  return json({ error: "not_found" }, { status: 404 });
}

export const loader = notFound;
export const action = notFound;
