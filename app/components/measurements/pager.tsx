import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Icon } from "~/components/ui/icon";

/** Previous / next links of an expanded storage's list (plain links: they work without JavaScript). */
export function Pager({
  page,
  totalPages,
  hrefWith,
}: {
  page: number;
  totalPages: number;
  hrefWith: (changes: Record<string, string | null>) => string;
}) {
  const { t } = useTranslation("timber");
  if (totalPages <= 1) return null;
  return (
    <nav className="pager" aria-label={t("pager.label")}>
      {page > 1 ? (
        <Link to={hrefWith({ page: String(page - 1) })} preventScrollReset className="btn btn-small">
          {t("pager.previous")}
        </Link>
      ) : null}
      <span className="muted">{t("pager.status", { page, total: totalPages })}</span>
      {page < totalPages ? (
        <Link
          to={hrefWith({ page: String(page + 1) })}
          preventScrollReset
          className="btn btn-small"
          data-testid="next-page"
        >
          {t("pager.next")}
        </Link>
      ) : null}
    </nav>
  );
}

/** The chevron that expands a storage row (a link, so it works without JavaScript); greyed when empty. */
export function ExpandToggle({
  storageId,
  open,
  empty,
  hrefWith,
}: {
  storageId: number;
  open: boolean;
  empty: boolean;
  hrefWith: (changes: Record<string, string | null>) => string;
}) {
  const { t } = useTranslation("timber");
  if (empty)
    return (
      <span className="expand-disabled" aria-hidden>
        <Icon name="chevron" />
      </span>
    );
  return (
    <Link
      to={hrefWith(open ? { open: null, page: null } : { open: String(storageId), page: null })}
      preventScrollReset
      className={`expand-toggle${open ? " open" : ""}`}
      aria-expanded={open}
      aria-label={t(open ? "table.collapse" : "table.expand")}
      data-testid={`expand-${storageId}`}
    >
      <Icon name="chevron" />
    </Link>
  );
}
