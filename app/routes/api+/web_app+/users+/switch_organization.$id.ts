import { json, redirect, type ActionFunctionArgs } from "@remix-run/node";
import { setRecentOrganization } from "~/models/organization.server";
import { methodNotAllowed, notFound, parseId } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { isFormPost } from "~/utils/request.server";

/**
 * PATCH /api/web_app/users/switch_organization/{id}. An organisation the user does not belong
 * to answers 404 (it does not exist for them). The switcher's no-JavaScript form posts here.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireApiUser(request);
  const formPost = isFormPost(request);
  if (!formPost && request.method !== "PATCH") methodNotAllowed();
  const id = parseId(params.id);
  if (!ctx.organizations.some((o) => o.id === id)) notFound();
  await setRecentOrganization(db(), ctx.userId, id);
  if (formPost) return redirect("/");
  return json({ id, recent_organization_id: id });
}

export function loader() {
  return methodNotAllowed();
}
