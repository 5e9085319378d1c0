import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/utils/auth.server";

/** GET /api/web_app/organizations: the organisations the user belongs to, the current one marked. */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  return json(ctx.organizations.map((o) => ({ ...o, current: o.id === ctx.organizationId })));
}
