import { NavLink } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Icon } from "~/components/ui/icon";
import { cx } from "~/utils/misc";
import { adminEntries, isLocked, measurementEntries, type NavEntry } from "./navigation";

function Entry({ entry, label, features }: { entry: NavEntry; label: string; features: readonly string[] }) {
  const { t } = useTranslation("shell");
  const locked = isLocked(entry, features);
  return (
    <li>
      <NavLink
        to={entry.to}
        className={({ isActive }) => cx("nav-link", isActive && "active")}
        title={label}
        data-testid={`nav-${entry.to}`}
      >
        <Icon name={entry.icon} />
        <span className="nav-label">{label}</span>
        {entry.badge ? (
          <span className="badge badge-danger" data-testid="nav-badge">
            {entry.badge}
          </span>
        ) : null}
        {locked ? (
          <span className="nav-lock" data-testid="nav-locked">
            <Icon name="lock" size={14} title={t("nav.locked")} />
          </span>
        ) : null}
      </NavLink>
    </li>
  );
}

export function Sidebar({
  isAdmin,
  cmpcEnabled,
  features,
  unseenReports,
}: {
  isAdmin: boolean;
  cmpcEnabled: boolean;
  features: readonly string[];
  unseenReports: number;
}) {
  const { t } = useTranslation("shell");
  return (
    <nav className="sidebar" aria-label={t("nav.label")}>
      <div className="nav-section">{t("nav.measurements")}</div>
      <ul>
        {measurementEntries({ cmpcEnabled }).map((e) => (
          <Entry key={e.key} entry={e} label={t(`nav.modes.${e.key}`)} features={features} />
        ))}
      </ul>
      <ul>
        <Entry
          entry={{ key: "exports", to: "/exports", icon: "exports" }}
          label={t("nav.exports")}
          features={features}
        />
      </ul>
      {isAdmin ? (
        <>
          <div className="nav-section">{t("nav.administration")}</div>
          <ul data-testid="admin-nav">
            {adminEntries({ unseenReports }).map((e) => (
              <Entry key={e.key} entry={e} label={t(`nav.admin.${e.key}`)} features={features} />
            ))}
          </ul>
        </>
      ) : null}
    </nav>
  );
}
