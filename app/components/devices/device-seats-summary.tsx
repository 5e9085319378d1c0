import { useTranslation } from "react-i18next";

/**
 * The devices list header's subscription summary. Billing (its own issue) feeds the packages;
 * with an empty list nothing is rendered. Free seats = quantity - linked, never below 0.
 */
export function DeviceSeatsSummary({
  packages,
}: {
  packages: { package_id: string; quantity: number; devices_linked: number }[];
}) {
  const { t } = useTranslation("accounts");
  if (packages.length === 0) return null;
  return (
    <ul className="seats-summary" data-testid="device-seats-summary">
      {packages.map((p) => (
        <li key={p.package_id}>
          <strong>{t(`devices.packages.${p.package_id}`, { defaultValue: p.package_id })}</strong>
          <span>
            {t("devices.seats", {
              linked: p.devices_linked,
              quantity: p.quantity,
              free: Math.max(0, p.quantity - p.devices_linked),
            })}
          </span>
        </li>
      ))}
    </ul>
  );
}
