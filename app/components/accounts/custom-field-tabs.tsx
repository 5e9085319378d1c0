import { NavLink } from "@remix-run/react";
import { useTranslation } from "react-i18next";

export function CustomFieldTabs() {
  const { t } = useTranslation("accounts");
  return (
    <nav className="tabs" aria-label={t("customFields.title")}>
      <NavLink to="/custom_fields" end className="tab">
        {t("customFields.listTab")}
      </NavLink>
      <NavLink to="/custom_fields/new" className="tab">
        {t("customFields.newTab")}
      </NavLink>
    </nav>
  );
}

/** Shown instead of the forms when the plan lacks the feature. */
export function UpsellNotice({ feature }: { feature: string }) {
  const { t } = useTranslation("accounts");
  return (
    <div className="alert alert-info upsell" role="status" data-testid="upsell">
      <strong>{t(`upsell.${feature}.title`)}</strong> {t(`upsell.${feature}.text`)}{" "}
      <a href="/billing">{t("upsell.cta")}</a>
    </div>
  );
}
