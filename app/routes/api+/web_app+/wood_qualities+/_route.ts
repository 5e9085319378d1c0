import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { createNamed, getNamed, listNamed } from "~/models/master-data.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser, requireFeature, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { i18nServer } from "~/utils/i18n.server";
import { woodQualityCreate } from "~/utils/schemas/master-data";

/** GET /api/web_app/wood_qualities: built-in (translated names) and the organisation's own. */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  const t = await i18nServer.getFixedT(ctx.user.locale, "lookups");
  return json(await listNamed(db(), ctx, "wood_qualities", t));
}

/** POST /api/web_app/wood_qualities {name}: admins with timber_management. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  requireFeature(ctx, "timber_management");
  const { name } = await parseBody(request, woodQualityCreate);
  const id = await createNamed(db(), ctx, "wood_qualities", name);
  return json(await getNamed(db(), ctx, "wood_qualities", id), { status: 201 });
}
