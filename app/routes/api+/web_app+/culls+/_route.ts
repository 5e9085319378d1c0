import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { createCull, listCulls } from "~/models/master-data.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { CullCreateSchema } from "~/utils/schemas/master-data";

/** GET /api/web_app/culls: built-in and own, sorted by reason. */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  return json(await listCulls(db(), ctx));
}

/** POST /api/web_app/culls cull{reason, min, max}: admins. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  const input = await parseBody(request, CullCreateSchema);
  const id = await createCull(db(), ctx, input);
  return json(
    (await listCulls(db(), ctx)).find((c) => c.id === id),
    { status: 201 },
  );
}
