import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Icon } from "~/components/ui/icon";
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES } from "~/i18n";
import { OrganizationSwitcher } from "./organization-switcher";
import type { ReactNode } from "react";

export function Header({
  user,
  organization,
  organizations,
  children,
}: {
  children?: ReactNode;
  user: { email: string; name: string | null; locale: string };
  organization: { id: number; name: string };
  organizations: { id: number; name: string }[];
}) {
  const { t } = useTranslation("shell");
  return (
    <header className="app-header">
      <label htmlFor="nav-toggle" className="btn btn-ghost nav-toggle-button" aria-label={t("header.menu")}>
        <Icon name="menu" />
      </label>
      <a href="/" className="brand">
        <img src="/logo.svg" alt="" width={28} height={28} />
        <span>{t("common:app.name")}</span>
      </a>
      <div className="header-spacer" />
      {children}
      <OrganizationSwitcher current={organization} organizations={organizations} />
      <details className="dropdown user-menu" data-testid="user-menu">
        <summary className="btn btn-ghost">{user.name ?? user.email}</summary>
        <div className="dropdown-menu">
          <div className="dropdown-text">{user.email}</div>
          <Form method="post" action="/api/web_app/account" reloadDocument className="dropdown-form">
            <input type="hidden" name="redirectTo" value="/" />
            <label htmlFor="account-locale">{t("header.language")}</label>
            <select
              id="account-locale"
              name="locale"
              defaultValue={user.locale}
              onChange={(e) => e.currentTarget.form?.requestSubmit()}
            >
              {SUPPORTED_LANGUAGES.map((l) => (
                <option key={l} value={l}>
                  {LANGUAGE_NAMES[l]}
                </option>
              ))}
            </select>
            <noscript>
              <button type="submit" className="btn btn-small">
                {t("header.applyLanguage")}
              </button>
            </noscript>
          </Form>
          <Form method="post" action="/logout" reloadDocument>
            <button type="submit" className="dropdown-item" data-testid="sign-out">
              <Icon name="logout" /> {t("header.signOut")}
            </button>
          </Form>
        </div>
      </details>
    </header>
  );
}
