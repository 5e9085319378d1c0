import { useEffect } from "react";
import type { MeasurementModeKey } from "~/components/shell/navigation";

/**
 * Remembers the measurement mode the user really landed on (/measurements opens it next time).
 * Written from the rendered screen, not by its loader: a GET stays free of side effects, so a
 * prefetch, a link preview or another site's request for the URL changes nothing.
 */
export function useRememberMeasurementMode(mode: MeasurementModeKey | null, current: string | null | undefined) {
  useEffect(() => {
    if (!mode || current === mode) return;
    void fetch("/api/web_app/account", {
      method: "PATCH",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ user: { recent_measurement_mode: mode } }),
    }).catch(() => {});
  }, [mode, current]);
}
