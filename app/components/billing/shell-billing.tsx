import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { intlLocale } from "~/i18n";
import type { ShellBilling } from "~/services/billing/actions.server";

// The shell's billing parts: the header's status badge or remaining-measurement counter, the
// upgrade button, and the two dismissible banners (plain forms: they work without JavaScript).

const STATUS_BADGE = { active: "badge-success", trialing: "badge-info", canceled: "badge-secondary" } as const;

export function formatDate(iso: string | null, locale: string) {
  return iso
    ? new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: "medium", timeZone: "UTC" }).format(new Date(iso))
    : "";
}

export function HeaderBilling({
  billing,
  isAdmin,
  locale,
}: {
  billing: ShellBilling;
  isAdmin: boolean;
  locale: string;
}) {
  const { t } = useTranslation("billing");
  // Spec: the status badge while subscribed, otherwise the remaining-measurement count: a
  // subscription does not limit pictures, so "Active" beside "Measurements left" only confused.
  const subscribed = billing.status === "active" || billing.status === "trialing";
  const counterShown = !subscribed;
  return (
    <div className="header-billing">
      {billing.status ? (
        <Link
          to="/billing"
          className={`badge status-badge ${STATUS_BADGE[billing.status]}`}
          data-testid="subscription-status"
        >
          {t(`status.${billing.status}`)}
          {billing.status === "trialing" && billing.trialEnd
            ? ` · ${t("status.trialEnds", { date: formatDate(billing.trialEnd, locale) })}`
            : ""}
        </Link>
      ) : null}
      {counterShown ? (
        <span className="remaining-counter" data-testid="remaining-measurements">
          {t("header.remaining", { count: billing.remaining })}
        </span>
      ) : null}
      {counterShown && isAdmin ? (
        <Link to="/billing/measurements" className="btn btn-small" data-testid="buy-measurements">
          {t("header.buy")}
        </Link>
      ) : null}
      {counterShown && billing.lastDayWarning ? (
        <span className="badge badge-warning" data-testid="last-day-warning" title={t("header.lastDayHint")}>
          {billing.remaining === 0 ? t("header.noneLeft") : t("header.lastDay")}
        </span>
      ) : null}
      {isAdmin && !billing.hasPaidPlan ? (
        <Link to="/billing" className="btn btn-small btn-primary" data-testid="upgrade-button">
          {t("header.upgrade")}
        </Link>
      ) : null}
    </div>
  );
}

export function BillingBanners({
  billing,
  isAdmin,
  dismissed,
  returnTo,
}: {
  billing: ShellBilling;
  isAdmin: boolean;
  dismissed: string[];
  returnTo: string;
}) {
  const { t } = useTranslation("billing");
  if (!isAdmin) return null;
  const banners: Array<{ key: "pending" | "noPlan"; kind: string; to: string }> = [];
  if (billing.openInvoices > 0 && !dismissed.includes("pending"))
    banners.push({ key: "pending", kind: "alert-info", to: "/billing/invoices" });
  if (!billing.hasProOrEnterprise && !dismissed.includes("noPlan"))
    banners.push({ key: "noPlan", kind: "alert-warning", to: "/billing" });
  return (
    <>
      {banners.map((b) => (
        <div key={b.key} className={`alert ${b.kind} billing-banner`} role="status" data-testid={`banner-${b.key}`}>
          <Link to={b.to}>{t(`banners.${b.key}`, { count: billing.openInvoices })}</Link>
          <form method="post" action="/banners/dismiss">
            <input type="hidden" name="banner" value={b.key} />
            <input type="hidden" name="redirectTo" value={returnTo} />
            <button
              type="submit"
              className="btn btn-ghost btn-small"
              aria-label={t("banners.dismiss")}
              data-testid={`dismiss-${b.key}`}
            >
              ×
            </button>
          </form>
        </div>
      ))}
    </>
  );
}
