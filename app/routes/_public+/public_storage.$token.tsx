import { Link, useLoaderData, useLocation, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ShortSha256 } from "~/components/measurements/trust-panels";
import { PublicErrorBoundary } from "~/components/public/public-error-boundary";
import { PublicLocation } from "~/components/public/public-location";
import { StorageStateBadge } from "~/components/timber/storages-table";
import { Icon } from "~/components/ui/icon";
import type { RootLoader } from "~/root";
import { publicVolume } from "~/utils/public-format";
import { publicMeta } from "~/utils/public-meta";
import { loadPublicStorage } from "~/utils/public-pages.server";
import { publicHeaders, publicJson } from "~/utils/public-route.server";
import { formatsFor } from "~/utils/use-format";
import type { LoaderFunctionArgs } from "@remix-run/node";

// /public_storage/{token}?page=N: a shared storage (name, state, location, totals) and its
// measurements a page at a time, each with its thumbnail and figures; a measurement that is
// shared itself links to its own public page.

export const handle = { i18n: ["public", "timber", "lookups", "trust"] };
export const headers = publicHeaders;
export const meta = publicMeta;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const page = new URL(request.url).searchParams.get("page");
  const { view, title } = await loadPublicStorage(request, context, params.token, page);
  return publicJson({ view, title });
}

export default function PublicStoragePage() {
  const { view } = useLoaderData<typeof loader>();
  const { t } = useTranslation(["public", "timber", "lookups"]);
  const language = useRouteLoaderData<RootLoader>("root")?.locale ?? "en";
  const location = useLocation();
  const f = formatsFor({ locale: language, timeZone: view.storage.time_zone, precision: 3, unit: "m^3" });
  const s = view.storage;
  const pageHref = (page: number) => {
    const params = new URLSearchParams(location.search);
    params.set("page", String(page));
    return `?${params}`;
  };
  return (
    <article className="public-record" data-testid="public-storage">
      <header className="public-title">
        <p className="muted" data-testid="shared-by">
          {t("frame.sharedBy", { organization: s.organization.name })}
        </p>
        <h1 data-testid="public-title">{s.name}</h1>
        <p>
          <StorageStateBadge state={s.storage_state_id} />
        </p>
      </header>

      <dl className="public-figures">
        <div>
          <dt>{t("timber:table.volume")}</dt>
          <dd data-testid="public-volume">{publicVolume(s.volume.value, s.volume.unit, f.locale)}</dd>
        </div>
        <div>
          <dt>{t("timber:table.logs")}</dt>
          <dd data-testid="public-logs">{f.count(s.logs_count)}</dd>
        </div>
        <div>
          <dt>{t("timber:table.measurements")}</dt>
          <dd data-testid="public-measurements-count">{f.count(s.measurements_count)}</dd>
        </div>
        <div>
          <dt>{t("timber:detail.location")}</dt>
          <dd className="public-figure-text">
            <PublicLocation latitude={s.latitude} longitude={s.longitude} format={f.coordinate} />
          </dd>
        </div>
      </dl>

      <section className="card">
        <h2 className="card-title">{t("timber:table.measurements")}</h2>
        {view.measurements.length === 0 ? (
          <p className="muted" data-testid="public-storage-empty">
            {t("storage.empty")}
          </p>
        ) : (
          <ul className="measurement-cards public-cards">
            {view.measurements.map((m) => {
              const body = (
                <>
                  {m.photo_thumbnail ? (
                    <img
                      className="thumb"
                      src={m.photo_thumbnail}
                      alt={t("timber:photoAlt", { id: m.id })}
                      width={80}
                      height={80}
                      loading="lazy"
                    />
                  ) : (
                    <span className="thumb thumb-pending" title={t("timber:noPhoto")}>
                      <Icon name="photo" />
                    </span>
                  )}
                  <span className="measurement-meta">
                    <strong>{t("timber:measurement", { id: m.id })}</strong>
                    <span>{f.dateTime(m.taken_at)}</span>
                    <span>
                      {[m.wood_type, m.log_length ? f.quantity(m.log_length.value, 2, "m") : null]
                        .filter(Boolean)
                        .join(" · ")}
                    </span>
                    <span>{t("timber:logsCount", { count: m.logs_count })}</span>
                    {m.photo_sha256 ? (
                      <ShortSha256 sha256={m.photo_sha256} testId={`public-measurement-${m.id}-sha256`} />
                    ) : null}
                  </span>
                  <span className="measurement-volume" data-testid={`public-measurement-${m.id}-volume`}>
                    {publicVolume(m.volume.value, m.volume.unit, f.locale)}
                  </span>
                  {m.public_url ? (
                    <span className="public-open" aria-hidden>
                      <Icon name="chevron" />
                    </span>
                  ) : null}
                </>
              );
              return (
                <li key={m.id} className="measurement-card" data-testid={`public-measurement-${m.id}`}>
                  {m.public_url ? (
                    <Link to={m.public_url} className="measurement-link" data-testid={`public-link-${m.id}`}>
                      {body}
                    </Link>
                  ) : (
                    <div className="measurement-link">{body}</div>
                  )}
                </li>
              );
            })}
          </ul>
        )}
        {view.total_pages > 1 ? (
          <nav className="pager" aria-label={t("timber:pager.label")}>
            {view.page > 1 ? (
              <Link to={pageHref(view.page - 1)} className="btn btn-small" data-testid="previous-page">
                {t("timber:pager.previous")}
              </Link>
            ) : null}
            <span className="muted">{t("timber:pager.status", { page: view.page, total: view.total_pages })}</span>
            {view.page < view.total_pages ? (
              <Link to={pageHref(view.page + 1)} className="btn btn-small" data-testid="next-page">
                {t("timber:pager.next")}
              </Link>
            ) : null}
          </nav>
        ) : null}
        <p className="muted small">{t("frame.timesIn", { timeZone: s.time_zone })}</p>
      </section>
    </article>
  );
}

export const ErrorBoundary = PublicErrorBoundary;
