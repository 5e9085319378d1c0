import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { listWoodTypes } from "~/models/lookup.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { i18nServer } from "~/utils/i18n.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  const t = await i18nServer.getFixedT(ctx.user.locale, "lookups");
  return json(await listWoodTypes(db(), ctx, t));
}
