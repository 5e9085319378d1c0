import { useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { ReactNode } from "react";

/**
 * The frame of every measurement kind's detail page: the title with its storage and time, the
 * actions (way back, the editor, exports...), the note that the editor needs JavaScript (shown
 * only without it), and why the page cannot be edited (an inventory locks the measurement, or the
 * caller may not edit in its storage). The page's own sections go inside.
 */
export function MeasurementDetailFrame({
  title,
  subtitle,
  actions,
  editorNeedsJs,
  locked,
  editable,
  className,
  children,
}: {
  title: string;
  subtitle: ReactNode;
  actions: ReactNode;
  /** The kind's "the editor needs JavaScript" sentence; none when the page has no editor. */
  editorNeedsJs?: string;
  locked: boolean;
  editable: boolean;
  /** The kind's own class beside measurement-detail, e.g. lumber-detail. */
  className?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation("timber");
  const navigation = useNavigation();
  return (
    <div
      className={className ? `page measurement-detail ${className}` : "page measurement-detail"}
      aria-busy={navigation.state === "loading" || undefined}
    >
      <div className="page-header">
        <div>
          <h1 className="page-title" data-testid="measurement-title">
            {title}
          </h1>
          <p className="muted">{subtitle}</p>
        </div>
        <nav className="page-actions" aria-label={t("detail.navigation")}>
          {actions}
        </nav>
      </div>
      {editorNeedsJs ? (
        <noscript>
          <div className="alert alert-info" role="note" data-testid="editor-needs-js">
            {editorNeedsJs}
          </div>
        </noscript>
      ) : null}
      {locked ? (
        <div className="alert alert-warning" role="note" data-testid="locked">
          {t("detail.locked")}
        </div>
      ) : !editable ? (
        <div className="alert alert-info" role="note" data-testid="read-only">
          {t("detail.readOnly")}
        </div>
      ) : null}
      {children}
    </div>
  );
}
