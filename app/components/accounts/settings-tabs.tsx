import { NavLink } from "@remix-run/react";
import { useTranslation } from "react-i18next";

export function SettingsTabs({ isAdmin }: { isAdmin: boolean }) {
  const { t } = useTranslation("accounts");
  return (
    <nav className="tabs" aria-label={t("settings.title")}>
      <NavLink to="/settings/account" className="tab">
        {t("settings.account")}
      </NavLink>
      {isAdmin ? (
        <NavLink to="/settings/organization" className="tab">
          {t("settings.organization")}
        </NavLink>
      ) : null}
      {isAdmin ? (
        <NavLink to="/settings/export_layouts" className="tab">
          {t("exports:layouts.link")}
        </NavLink>
      ) : null}
    </nav>
  );
}
