import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  PublicContainerDetails,
  PublicContainerMeasurements,
  PublicJasTally,
} from "~/components/public/public-container-parts";
import { PublicErrorBoundary } from "~/components/public/public-error-boundary";
import type { RootLoader } from "~/root";
import { publicRowVolume, publicVolume } from "~/utils/public-format";
import { publicMeta } from "~/utils/public-meta";
import { loadPublicBillOfLading } from "~/utils/public-pages.server";
import { publicHeaders, publicJson } from "~/utils/public-route.server";
import { formatsFor } from "~/utils/use-format";
import type { LoaderFunctionArgs } from "@remix-run/node";

// /public_bill_of_lading/{token}: a shared bill of lading, read-only, for anyone with the link (no
// sign-in): its totals (containers, measurements, logs, JAS m³), its containers by name, each
// opening to its details and measurements, and the bill's JAS tally. An unknown, rotated or
// stopped token is the public not-found page; a failed load shows the page's error heading.

export const handle = { i18n: ["public", "trust"] };
export const headers = publicHeaders;
export const meta = publicMeta;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { view, title } = await loadPublicBillOfLading(request, context, params.token);
  return publicJson({ view, title });
}

export default function PublicBillOfLadingPage() {
  const { view } = useLoaderData<typeof loader>();
  const { t } = useTranslation("public");
  const language = useRouteLoaderData<RootLoader>("root")?.locale ?? "en";
  const f = formatsFor({ locale: language, timeZone: view.time_zone, precision: 3, unit: "m^3" });
  const b = view.bill_of_lading;
  return (
    <article className="public-record" data-testid="public-bill-of-lading">
      <header className="public-title">
        <p className="muted" data-testid="shared-by">
          {t("frame.sharedBy", { organization: view.organization.name })}
        </p>
        <p className="muted">{t("container.billOfLading")}</p>
        <h1 data-testid="public-title">{b.name}</h1>
      </header>

      <dl className="public-figures">
        <div>
          <dt>{t("container.volumeJas")}</dt>
          <dd data-testid="public-volume">{publicVolume(b.volume, "m^3", f.locale)}</dd>
        </div>
        <div>
          <dt>{t("container.logs")}</dt>
          <dd data-testid="public-logs">{f.count(b.log_count)}</dd>
        </div>
        <div>
          <dt>{t("container.containers")}</dt>
          <dd data-testid="public-containers-count">{f.count(b.container_count)}</dd>
        </div>
        <div>
          <dt>{t("container.measurements")}</dt>
          <dd data-testid="public-measurements-count">{f.count(b.measurement_count)}</dd>
        </div>
      </dl>

      <section className="card">
        <h2 className="card-title">{t("container.containers")}</h2>
        {view.containers.length === 0 ? (
          <p className="muted" data-testid="public-bill-empty">
            {t("container.noContainers")}
          </p>
        ) : (
          <ul className="public-container-list">
            {view.containers.map((c, i) => (
              <li key={`${c.name}-${i}`} data-testid="public-bill-container">
                <details>
                  <summary>
                    <strong className="public-container-name">{c.name}</strong>
                    <span className="public-container-figures">
                      <span>
                        {t("container.logs")}: {f.count(c.log_count)}
                      </span>
                      <span data-testid="public-bill-container-volume">
                        {publicRowVolume(c.volume, "m^3", f.locale)} m³
                      </span>
                    </span>
                  </summary>
                  <PublicContainerDetails container={c} f={f} />
                  <PublicContainerMeasurements measurements={c.measurements} f={f} />
                </details>
              </li>
            ))}
          </ul>
        )}
      </section>

      <PublicJasTally rows={view.tally} total={b} f={f} />
      <p className="muted small">{t("frame.timesIn", { timeZone: view.time_zone })}</p>
    </article>
  );
}

export function ErrorBoundary() {
  return <PublicErrorBoundary errorTitleKey="container.billError" />;
}
