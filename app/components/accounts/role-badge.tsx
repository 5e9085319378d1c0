import { useTranslation } from "react-i18next";

// The spec's role badges: danger for admin and super_admin, warning for measurer, neutral for viewer.
const TONE: Record<string, string> = {
  admin: "badge-danger",
  super_admin: "badge-danger",
  measurer: "badge-warning",
  viewer: "",
};

export function RoleBadge({ name }: { name: string }) {
  const { t } = useTranslation("accounts");
  return <span className={`badge ${TONE[name] ?? ""}`}>{t(`roles.names.${name}`)}</span>;
}
