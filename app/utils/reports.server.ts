import { formatDate } from "~/domain/format";
import { i18nServer } from "./i18n.server";
import type { AuthContext } from "./auth-context";

/** Today as yyyy-MM-dd on the user's calendar (a report's default date). */
export function todayIn(timeZone: string, now = new Date()) {
  try {
    return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
      now,
    );
  } catch {
    return now.toISOString().slice(0, 10);
  }
}

/** The name of a report generated from a storage: "Storage A 27.11.2026" in the user's language and zone. */
export async function storageReportName(ctx: Pick<AuthContext, "user">, now = new Date()) {
  const t = await i18nServer.getFixedT(ctx.user.locale, "reports");
  const date = formatDate(now, ctx.user.time_zone);
  return (storage: string) => t("storageReportName", { storage, date });
}
