import { NavLink } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/** The Reports section's tabs: Reports, and Mixed stack only with the mixed_stack_reports feature. */
export function ReportTabs({ mixedStack }: { mixedStack: boolean }) {
  const { t } = useTranslation("reports");
  return (
    <nav className="tabs" aria-label={t("tabs.label")} data-testid="report-tabs">
      <NavLink to="/reports" end className={({ isActive }) => (isActive ? "tab active" : "tab")}>
        {t("tabs.reports")}
      </NavLink>
      {mixedStack ? (
        <NavLink
          to="/reports/mixed-stack"
          className={({ isActive }) => (isActive ? "tab active" : "tab")}
          data-testid="tab-mixed-stack"
        >
          {t("tabs.mixedStack")}
        </NavLink>
      ) : null}
    </nav>
  );
}

/** Without the reports feature: the section's notice, with the way to the plan. */
export function ReportsUnavailable() {
  const { t } = useTranslation("reports");
  return (
    <div className="page">
      <h1 className="page-title">{t("title")}</h1>
      <div className="alert alert-warning" role="status" data-testid="feature-unavailable">
        <strong>{t("unavailable.title")}</strong> {t("unavailable.text")} <a href="/billing">{t("unavailable.link")}</a>
      </div>
    </div>
  );
}
