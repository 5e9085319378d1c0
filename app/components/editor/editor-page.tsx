import { Link, useRevalidator } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "~/utils/use-hydrated";

/**
 * The frame every editor route shares: title and way back, the static photo with its overlay
 * until the editor has loaded (and for good without JavaScript, with a note that the editor needs
 * it), then the editor. After a save it reloads the route's data and hands the editor a new
 * `version`, so the editor starts again from the server's numbers.
 */
export function EditorPage({
  title,
  back,
  data,
  hasPhoto,
  photoSrc,
  notice,
  fallback,
  editor,
}: {
  title: string;
  back: string;
  data: unknown;
  hasPhoto: boolean;
  /** Fetched while the page's scripts load, so the editor finds the photo in the cache. */
  photoSrc: string | null;
  notice: string | null;
  fallback: ReactNode;
  editor: (args: { version: string; onSaved(): void }) => ReactNode;
}) {
  const { t } = useTranslation("timber");
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const [generation, setGeneration] = useState(0);
  const reloadPending = useRef(false);
  useEffect(() => {
    if (!reloadPending.current) return;
    reloadPending.current = false;
    setGeneration((g) => g + 1);
  }, [data]);
  const onSaved = useCallback(() => {
    reloadPending.current = true;
    revalidator.revalidate();
  }, [revalidator]);

  return (
    <div className="page editor-page">
      {photoSrc ? <link rel="preload" as="image" href={photoSrc} /> : null}
      <div className="page-header">
        <h1 className="page-title" data-testid="editor-title">
          {title}
        </h1>
        <nav className="page-actions">
          <Link className="btn" to={back} data-testid="editor-back">
            {t("editor.backToDetail")}
          </Link>
        </nav>
      </div>
      {notice ? (
        <div className="alert alert-warning" role="note">
          {notice}
        </div>
      ) : null}
      {/* Without JavaScript: the note and the photo with its overlay. With it, the (large) overlay
          is never rendered: the editor replaces a short loading line once the page has hydrated. */}
      <noscript>
        <div className="alert alert-info" role="note" data-testid="editor-needs-js">
          {t("editor.needsJavaScript")}
        </div>
        <div className="editor-fallback">{fallback}</div>
      </noscript>
      {!hasPhoto ? (
        <div className="photo-placeholder" data-testid="photo-placeholder">
          {t("editor.noPhoto")}
        </div>
      ) : hydrated ? (
        editor({ version: String(generation), onSaved })
      ) : (
        <p className="muted editor-loading" aria-busy="true" data-testid="editor-loading">
          {t("editor.loading")}
        </p>
      )}
    </div>
  );
}
