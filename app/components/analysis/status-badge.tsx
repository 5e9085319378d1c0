import { useTranslation } from "react-i18next";

const BADGE: Record<string, string> = {
  created: "badge badge-info",
  finished: "badge badge-success",
  failed: "badge badge-danger",
};

/** An analysis's status: created (running), finished, failed. */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation("analysis");
  return (
    <span className={BADGE[status] ?? "badge"} data-testid="analysis-status">
      {t(`status.${status}`)}
    </span>
  );
}
