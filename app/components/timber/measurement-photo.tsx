import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/utils/use-format";

export interface OverlayLog {
  id: number;
  x: number;
  y: number;
  r: number;
  d: number;
  is_deleted: boolean;
  modified_at: string | null;
}

/**
 * The stack photo with its logs drawn over it as SVG in image pixels (the viewBox is the
 * photo's size, so the overlay scales with the picture): green circles, red once modified,
 * each labelled with its diameter to one decimal.
 */
export function MeasurementPhoto({
  src,
  width,
  height,
  logs,
  references,
  alt,
  manual = false,
}: {
  /** A manual measurement has no photo by design: say so instead of a missing-photo error. */
  manual?: boolean;
  src: string | null;
  width: number | null;
  height: number | null;
  logs: OverlayLog[];
  references: Array<{ x1: number; y1: number; x2: number; y2: number }>;
  alt: string;
}) {
  const { t } = useTranslation("timber");
  const [failed, setFailed] = useState(false);
  const format = useFormat();
  if (manual && !src) {
    return (
      <div className="photo-placeholder photo-manual" data-testid="photo-placeholder">
        {t("detail.manualNoPhoto")}
      </div>
    );
  }
  if (!src || failed || !width || !height) {
    return (
      <div className="photo-placeholder" data-testid="photo-placeholder">
        {t(src ? "detail.photoUnavailable" : "detail.noPhoto")}
      </div>
    );
  }
  const fmt = (d: number) => format.number(d, 1);
  return (
    <figure className="measurement-photo" data-testid="measurement-photo">
      <img src={src} alt={alt} width={width} height={height} onError={() => setFailed(true)} />
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="log-overlay"
        aria-hidden
        data-testid="log-overlay"
        preserveAspectRatio="none"
      >
        {references.map((r, i) => (
          <line key={`ref${i}`} x1={r.x1} y1={r.y1} x2={r.x2} y2={r.y2} className="overlay-reference" />
        ))}
        {logs
          .filter((l) => !l.is_deleted)
          .map((l) => (
            <g key={l.id} className={l.modified_at ? "overlay-log modified" : "overlay-log"} data-testid="overlay-log">
              <circle cx={l.x} cy={l.y} r={l.r} />
              <text x={l.x} y={l.y} fontSize={Math.max(10, l.r * 0.6)} textAnchor="middle" dominantBaseline="central">
                {fmt(l.d)}
              </text>
            </g>
          ))}
      </svg>
    </figure>
  );
}
