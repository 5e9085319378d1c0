import { getContainerMeasurementRow } from "~/models/container-measurement.server";
import { billOfLadingExists, containerExists } from "~/models/container.server";
import { parseId } from "~/utils/api.server";
import { requireApiUser, requireFeature } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { notFound } from "~/utils/errors";

// What the /containers/* calls share (docs/decisions/022-containers.md): the signed-in caller of
// an organisation with the container_measurements feature (the Container plan; 403
// feature_unavailable without it). A record of another organisation is 404 before anything
// else, so an outsider learns nothing.

export const CONTAINER_FEATURE = "container_measurements";

export async function requireContainersUser(request: Request) {
  const ctx = await requireApiUser(request);
  requireFeature(ctx, CONTAINER_FEATURE);
  return ctx;
}

export async function requireBill(request: Request, idParam: string | undefined) {
  const ctx = await requireApiUser(request);
  const id = parseId(idParam);
  if (!(await billOfLadingExists(db(), ctx.organizationId, id))) notFound();
  requireFeature(ctx, CONTAINER_FEATURE);
  return { ctx, id };
}

export async function requireContainer(request: Request, idParam: string | undefined) {
  const ctx = await requireApiUser(request);
  const id = parseId(idParam);
  if (!(await containerExists(db(), ctx.organizationId, id))) notFound();
  requireFeature(ctx, CONTAINER_FEATURE);
  return { ctx, id };
}

export async function requireContainerMeasurement(request: Request, idParam: string | undefined) {
  const ctx = await requireApiUser(request);
  const id = parseId(idParam);
  const m = await getContainerMeasurementRow(db(), ctx, id);
  if (!m) notFound();
  requireFeature(ctx, CONTAINER_FEATURE);
  return { ctx, id, m };
}

/** ?extra_fields=logs,references */
export function extraFields(request: Request) {
  const extra = new Set(
    (new URL(request.url).searchParams.get("extra_fields") ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );
  return { logs: extra.has("logs"), references: extra.has("references") };
}
