import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { QUICK_RANGES } from "~/utils/timber-dates";

/** The dashboards' quick date ranges: links that set taken_at_start/end and keep the other filters. */
export function QuickRanges({
  range,
  ranges,
}: {
  range: string | null;
  ranges: Record<string, { start: string; end: string }>;
}) {
  const { t } = useTranslation("timber");
  const location = useLocation();
  const rangeHref = (r: string) => {
    const p = new URLSearchParams(location.search);
    p.set("taken_at_start", ranges[r].start);
    p.set("taken_at_end", ranges[r].end);
    p.delete("page");
    return `?${p}`;
  };
  return (
    <nav className="quick-ranges" aria-label={t("ranges.label")}>
      {QUICK_RANGES.map((r) => (
        <Link
          key={r}
          to={rangeHref(r)}
          className={`btn btn-small${range === r ? " active" : ""}`}
          aria-current={range === r ? "true" : undefined}
          data-testid={`range-${r}`}
        >
          {t(`ranges.${r}`)}
        </Link>
      ))}
    </nav>
  );
}

/** A link to the same page with some query parameters changed (null removes one). */
export function useHrefWith() {
  const location = useLocation();
  return (changes: Record<string, string | null>) => {
    const p = new URLSearchParams(location.search);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) p.delete(k);
      else p.set(k, v);
    }
    return `?${p}`;
  };
}
