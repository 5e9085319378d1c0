import { json, type ActionFunctionArgs } from "@remix-run/node";
import { containerFilter } from "~/models/container.server";
import { fieldErrors, methodNotAllowed, readJson } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { ContainerFilterSchema } from "~/utils/schemas/containers";
import { withZonedFilterDays } from "~/utils/schemas/timber";
import { requireContainersUser } from "./__containers-api.server";

/**
 * POST /containers/container_filter with the bill-of-lading filter fields: {bill_of_ladings,
 * meta}, each bill with container_count, log_count, volume and its containers. A date given as a
 * day (2026-11-20) is that day on the user's calendar (an end day inclusive), as on the
 * dashboards and in container_dashboard_excel, which lists the same rows.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireContainersUser(request);
  const body = await readJson(request);
  const raw = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const parsed = ContainerFilterSchema.safeParse(withZonedFilterDays(raw, ctx.user.time_zone));
  if (!parsed.success) return json({ error: "validation_failed", errors: fieldErrors(parsed.error) }, { status: 422 });
  return json(await containerFilter(db(), ctx, parsed.data));
}

export function loader() {
  return methodNotAllowed();
}
