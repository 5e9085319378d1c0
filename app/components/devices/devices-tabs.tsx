import { NavLink } from "@remix-run/react";
import { useTranslation } from "react-i18next";

export function DevicesTabs() {
  const { t } = useTranslation("accounts");
  return (
    <nav className="tabs" aria-label={t("devices.title")}>
      <NavLink to="/devices" end className="tab">
        {t("devices.listTab")}
      </NavLink>
      <NavLink to="/devices/new" className="tab">
        {t("devices.linkTab")}
      </NavLink>
    </nav>
  );
}
