import { layoutStack, renderStackJpeg, type DrawnStack } from "#db/seed/stack-photo";
import { baseUrl } from "./http";

/** A device upload's JSON for a drawn stack: logs and the reference exactly as drawn. */
export function stackPayload(
  stack: DrawnStack,
  values: Record<string, unknown> & { client_id: string; storage_id: number },
) {
  return {
    taken_at: new Date().toISOString(),
    latitude: 58.3776,
    longitude: 26.729,
    log_length: 3,
    volume_formula: "cylinder",
    measurement_type_id: 1,
    logs: stack.logs,
    references: [stack.reference],
    ...values,
  };
}

export async function drawnStack(seed = 5) {
  const stack = layoutStack(seed, { width: 1000, height: 750 });
  return { stack, jpeg: await renderStackJpeg(stack, seed) };
}

/** POST /api/device/measurements as the mobile app sends it (multipart: photo + measurement JSON). */
export async function deviceUpload(
  token: string,
  parts: { measurement?: unknown; photo?: Buffer | null; photoType?: string; rawMeasurement?: string },
  /** The kind's upload path: timber's by default, /api/device/lumber_measurements for lumber. */
  path = "/api/device/measurements",
) {
  const form = new FormData();
  if (parts.rawMeasurement !== undefined) form.set("measurement", parts.rawMeasurement);
  else if (parts.measurement !== undefined) form.set("measurement", JSON.stringify(parts.measurement));
  if (parts.photo)
    form.set("photo", new Blob([new Uint8Array(parts.photo)], { type: parts.photoType ?? "image/jpeg" }), "stack.jpg");
  const response = await fetch(`${baseUrl()}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await response.text();
  let data: any = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  return { status: response.status, data };
}
