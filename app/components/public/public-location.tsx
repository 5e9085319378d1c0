import { useTranslation } from "react-i18next";

/** Coordinates (6 decimals) with a link to see them on OpenStreetMap; a dash without them. */
export function PublicLocation({
  latitude,
  longitude,
  format,
}: {
  latitude: number | null;
  longitude: number | null;
  format: (v: number | null | undefined) => string;
}) {
  const { t } = useTranslation("public");
  if (latitude === null || longitude === null) return <>{t("frame.noLocation")}</>;
  const map = `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=15/${latitude}/${longitude}`;
  return (
    <span className="public-location" data-testid="public-location">
      {format(latitude)}, {format(longitude)}{" "}
      <a href={map} target="_blank" rel="noopener noreferrer">
        {t("frame.openMap")}
      </a>
    </span>
  );
}
