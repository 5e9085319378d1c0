import { formatDate } from "~/domain/format";
import { i18nServer } from "./i18n.server";
import type { AuthContext } from "./auth-context";

/** The name a report gets when created without one: "Mixed stack report 27.11.2026" in the user's language and zone. */
export async function mixedStackDefaultName(ctx: Pick<AuthContext, "user">, now = new Date()) {
  const t = await i18nServer.getFixedT(ctx.user.locale, "mixed-stack");
  return t("defaultName", { date: formatDate(now, ctx.user.time_zone) });
}
