import { publicMixedStackThumbnailKey } from "~/models/public-mixed-stack.server";
import { db } from "~/utils/db.server";
import { publicFile, publicNotFound, requirePublicGrant } from "~/utils/public-route.server";
import type { LoaderFunctionArgs } from "@remix-run/node";

/** /mixed_stack_report/public/{token}/thumbnails/{id}: the thumbnail of one measurement of the shared report. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const grant = await requirePublicGrant(request, context, params.token, "mixed_stack_report", { opened: false });
  if (!/^\d{1,18}$/.test(params.id ?? "")) publicNotFound();
  return publicFile(await publicMixedStackThumbnailKey(db(), grant, Number(params.id)));
}
