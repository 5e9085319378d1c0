import { type ActionFunctionArgs } from "@remix-run/node";
import { revokeSession } from "~/models/session.server";
import { methodNotAllowed } from "~/utils/api.server";
import { bearerToken, requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { getSessionToken } from "~/utils/session.server";

/** POST /api/web_app/logout: revokes the token the call was made with. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  await requireApiUser(request);
  const token = bearerToken(request) ?? (await getSessionToken(request));
  if (token) await revokeSession(db(), token);
  return new Response(null, { status: 204 });
}

export function loader() {
  return methodNotAllowed();
}
