import { useTranslation } from "react-i18next";

/** Without the duplicate_storage_measurements feature: what it is and where to get it. */
export function AnalysisFeatureNotice() {
  const { t } = useTranslation("analysis");
  return (
    <div className="alert alert-info upsell" role="status" data-testid="upsell">
      <strong>{t("upsell.title")}</strong> {t("upsell.text")} <a href="/billing">{t("upsell.cta")}</a>
    </div>
  );
}
