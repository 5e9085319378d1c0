import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  PublicContainerDetails,
  PublicContainerMeasurements,
  PublicJasTally,
} from "~/components/public/public-container-parts";
import { PublicErrorBoundary } from "~/components/public/public-error-boundary";
import type { RootLoader } from "~/root";
import { publicVolume } from "~/utils/public-format";
import { publicMeta } from "~/utils/public-meta";
import { loadPublicContainer } from "~/utils/public-pages.server";
import { publicHeaders, publicJson } from "~/utils/public-route.server";
import { formatsFor } from "~/utils/use-format";
import type { LoaderFunctionArgs } from "@remix-run/node";

// /public_container/{token}: a shared container, read-only, for anyone with the link (no sign-in):
// its details, totals (measurements, logs, JAS m³), its measurements with their thumbnails, and
// its JAS tally. The container's token opens nothing else (not its bill's other containers). An
// unknown, rotated or stopped token is the public not-found page.

export const handle = { i18n: ["public", "trust"] };
export const headers = publicHeaders;
export const meta = publicMeta;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { view, title } = await loadPublicContainer(request, context, params.token);
  return publicJson({ view, title });
}

export default function PublicContainerPage() {
  const { view } = useLoaderData<typeof loader>();
  const { t } = useTranslation("public");
  const language = useRouteLoaderData<RootLoader>("root")?.locale ?? "en";
  const f = formatsFor({ locale: language, timeZone: view.time_zone, precision: 3, unit: "m^3" });
  const c = view.container;
  return (
    <article className="public-record" data-testid="public-container">
      <header className="public-title">
        <p className="muted" data-testid="shared-by">
          {t("frame.sharedBy", { organization: view.organization.name })}
        </p>
        <p className="muted">
          {view.bill_of_lading ? t("container.inBill", { name: view.bill_of_lading.name }) : t("container.container")}
        </p>
        <h1 data-testid="public-title">{c.name}</h1>
      </header>

      <dl className="public-figures">
        <div>
          <dt>{t("container.volumeJas")}</dt>
          <dd data-testid="public-volume">{publicVolume(c.volume, "m^3", f.locale)}</dd>
        </div>
        <div>
          <dt>{t("container.logs")}</dt>
          <dd data-testid="public-logs">{f.count(c.log_count)}</dd>
        </div>
        <div>
          <dt>{t("container.measurements")}</dt>
          <dd data-testid="public-measurements-count">{f.count(c.measurement_count)}</dd>
        </div>
      </dl>

      <PublicContainerDetails container={c} f={f} />

      <section className="card">
        <h2 className="card-title">{t("container.measurements")}</h2>
        <PublicContainerMeasurements measurements={c.measurements} f={f} />
      </section>

      <PublicJasTally rows={view.tally} total={c} f={f} />
      <p className="muted small">{t("frame.timesIn", { timeZone: view.time_zone })}</p>
    </article>
  );
}

export function ErrorBoundary() {
  return <PublicErrorBoundary errorTitleKey="container.containerError" />;
}
