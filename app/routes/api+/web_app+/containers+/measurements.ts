import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { listContainerMeasurements, serializeContainerMeasurement } from "~/models/container-measurement.server";
import { db } from "~/utils/db.server";
import { withAppErrors } from "~/utils/errors";
import { extraFields, requireContainer } from "./__containers-api.server";

/** GET /containers/measurements?container_id=&extra_fields=logs,references: the container's measurements. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { ctx, id } = await requireContainer(
    request,
    new URL(request.url).searchParams.get("container_id") ?? undefined,
  );
  const rows = await withAppErrors(() => listContainerMeasurements(db(), ctx, id));
  const extra = extraFields(request);
  const data = [];
  for (const m of rows) data.push(await serializeContainerMeasurement(db(), ctx, m, extra));
  return json({ data });
}
