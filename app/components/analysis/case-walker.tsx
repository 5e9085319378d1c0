import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/utils/use-format";

interface Item {
  id: number;
  storage_name: string;
  taken_at: string;
  volume: number;
  logs_count: number;
  photo_thumbnail: string | null;
}

/**
 * A case's measurements one at a time, previous and next as links (so it works without
 * JavaScript). Stepping past either end keeps the end measurement and shows the alert.
 */
export function CaseWalker({ items, at, linkTo }: { items: Item[]; at: number; linkTo: (at: number) => string }) {
  const { t } = useTranslation("analysis");
  const f = useFormat();
  if (items.length === 0) return null;
  const index = Math.min(Math.max(at, 0), items.length - 1);
  const end = at < 0 ? "first" : at >= items.length ? "last" : null;
  const m = items[index];
  return (
    <section className="case-walker" data-testid="case-walker" aria-live="polite">
      {end ? (
        <div className="alert alert-warning" role="alert" data-testid="walker-end">
          {t(end === "first" ? "walker.atFirst" : "walker.atLast")}
        </div>
      ) : null}
      <div className="page-header">
        <Link to={linkTo(index - 1)} className="btn" preventScrollReset data-testid="walker-previous">
          {t("walker.previous")}
        </Link>
        <span data-testid="walker-position">{t("walker.position", { index: index + 1, count: items.length })}</span>
        <Link to={linkTo(index + 1)} className="btn" preventScrollReset data-testid="walker-next">
          {t("walker.next")}
        </Link>
      </div>
      <div className="measurement-detail-summary" data-testid="walker-measurement" data-measurement-id={m.id}>
        {m.photo_thumbnail ? (
          <img src={m.photo_thumbnail} alt={t("detail.photoAlt", { id: m.id })} width={240} />
        ) : null}
        <dl className="detail-totals">
          <div>
            <dt>{t("fields.measurement")}</dt>
            <dd>
              <Link to={`/measurements/timber/${m.id}`}>#{m.id}</Link>
            </dd>
          </div>
          <div>
            <dt>{t("fields.storage")}</dt>
            <dd>{m.storage_name}</dd>
          </div>
          <div>
            <dt>{t("fields.takenAt")}</dt>
            <dd>{f.dateTime(m.taken_at)}</dd>
          </div>
          <div>
            <dt>{t("fields.volume")}</dt>
            <dd>{f.volume(m.volume)}</dd>
          </div>
          <div>
            <dt>{t("fields.logs")}</dt>
            <dd>{f.count(m.logs_count)}</dd>
          </div>
        </dl>
      </div>
    </section>
  );
}
