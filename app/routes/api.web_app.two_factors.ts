import { json, type ActionFunctionArgs } from "@remix-run/node";
import { disableTwoFactor, enableTwoFactor } from "~/models/two-factor.server";
import { methodNotAllowed } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";

/** POST /api/web_app/two_factors -> {url, backup_codes}; DELETE /api/web_app/two_factors turns it off. */
export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireApiUser(request);
  if (request.method === "POST") {
    const { url, backup_codes } = await enableTwoFactor(db(), ctx.user);
    return json({ url, backup_codes }, { status: 201 });
  }
  if (request.method === "DELETE") {
    await disableTwoFactor(db(), ctx.userId);
    return new Response(null, { status: 204 });
  }
  methodNotAllowed();
}

export function loader() {
  return methodNotAllowed();
}
