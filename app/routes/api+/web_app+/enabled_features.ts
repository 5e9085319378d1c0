import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/utils/auth.server";

/** GET /api/web_app/enabled_features: the features derived from the organisation's active items. */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  return json({ features: ctx.features });
}
