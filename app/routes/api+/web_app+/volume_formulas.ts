import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { LOG_FORMULAS } from "~/domain/log-volume";
import { listVolumeFormulas } from "~/models/lookup.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { i18nServer } from "~/utils/i18n.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  const t = await i18nServer.getFixedT(ctx.user.locale, "lookups");
  const rows = await listVolumeFormulas(db());
  return json(
    rows.map((r) => ({
      key: r.key,
      unit: r.unit,
      name: t(`formulas.${r.key}.name`),
      description: t(`formulas.${r.key}.description`),
      inputs: LOG_FORMULAS[r.key as keyof typeof LOG_FORMULAS]?.inputs ?? [],
    })),
  );
}
