import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

export interface OverlayPlank {
  id: number;
  x: number;
  y: number;
  width: number;
  height: number;
  is_deleted: boolean;
  modified_at: string | Date | null;
}

/**
 * A lumber package's end photo with its planks drawn over it as SVG rectangles in image pixels
 * (the viewBox is the photo's size, so the overlay scales with the picture): green as detected,
 * red once a person added or moved them; removed planks are not drawn. A label gives the count.
 */
export function LumberPhoto({
  src,
  width,
  height,
  planks,
  alt,
}: {
  src: string | null;
  width: number | null;
  height: number | null;
  planks: OverlayPlank[];
  alt: string;
}) {
  const { t } = useTranslation("timber");
  const [failed, setFailed] = useState(false);
  const img = useRef<HTMLImageElement>(null);
  // A photo that failed before hydration fired its error event before React listened.
  useEffect(() => {
    if (img.current?.complete && img.current.naturalWidth === 0) setFailed(true);
  }, []);
  if (!src || failed || !width || !height) {
    return (
      <div className="photo-placeholder" data-testid="photo-placeholder">
        {t(src ? "detail.photoUnavailable" : "detail.noPhoto")}
      </div>
    );
  }
  const kept = planks.filter((p) => !p.is_deleted);
  return (
    <figure className="measurement-photo lumber-photo" data-testid="lumber-photo">
      <img ref={img} src={src} alt={alt} width={width} height={height} onError={() => setFailed(true)} />
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="log-overlay"
        aria-hidden
        data-testid="plank-overlay"
        preserveAspectRatio="none"
      >
        {kept.map((p) => (
          <rect
            key={p.id}
            x={p.x}
            y={p.y}
            width={p.width}
            height={p.height}
            className={p.modified_at ? "overlay-plank modified" : "overlay-plank"}
            data-testid="overlay-plank"
          />
        ))}
      </svg>
      <figcaption className="plank-count-label" data-testid="plank-count-label">
        {kept.length ? t("lumber.plankCount", { count: kept.length }) : t("lumber.noPlanks")}
      </figcaption>
    </figure>
  );
}
