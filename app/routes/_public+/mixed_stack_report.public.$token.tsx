import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { MixedStackFigures, MixedStackGroups } from "~/components/mixed-stack/mixed-stack-figures";
import { PublicErrorBoundary } from "~/components/public/public-error-boundary";
import type { RootLoader } from "~/root";
import { publicMeta } from "~/utils/public-meta";
import { loadPublicMixedStackReport } from "~/utils/public-pages.server";
import { publicHeaders, publicJson } from "~/utils/public-route.server";
import { formatsFor } from "~/utils/use-format";
import type { LoaderFunctionArgs } from "@remix-run/node";

// /mixed_stack_report/public/{token}: a shared mixed stack report, read-only, for anyone with the
// link (no sign-in): its figures and both groups, no edit or remove controls. An unknown, rotated
// or stopped token is the public not-found page.

export const handle = { i18n: ["public", "mixed-stack", "timber"] };
export const headers = publicHeaders;
export const meta = publicMeta;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { view, title } = await loadPublicMixedStackReport(request, context, params.token);
  return publicJson({ view, title });
}

export default function PublicMixedStackReportPage() {
  const { view } = useLoaderData<typeof loader>();
  const { t } = useTranslation(["public", "mixed-stack"]);
  const language = useRouteLoaderData<RootLoader>("root")?.locale ?? "en";
  const f = formatsFor({ locale: language, timeZone: view.time_zone, precision: 3, unit: "m^3" });
  const item = (m: (typeof view.measurements_data.close_up)[number]) => ({
    id: m.id,
    log_count: m.log_count,
    taken_at: m.taken_at,
    photo_thumbnail: m.photo_thumbnail,
  });
  return (
    <article className="public-record" data-testid="public-mixed-stack">
      <header className="public-title">
        <p className="muted" data-testid="shared-by">
          {t("frame.sharedBy", { organization: view.organization.name })}
        </p>
        <h1 data-testid="public-title">{view.name}</h1>
        <p className="muted small">{t("mixed-stack:updatedAt", { when: f.dateTime(view.updated_at) })}</p>
      </header>
      <section className="card">
        <h2 className="card-title">{t("mixed-stack:figures.title")}</h2>
        <MixedStackFigures report={{ ...view, far_away_volume: view.far_away_volume.value }} f={f} />
      </section>
      <MixedStackGroups
        groups={{
          close_up: view.measurements_data.close_up.map(item),
          far_away: view.measurements_data.far_away.map(item),
        }}
        f={f}
        removable={false}
      />
      <p className="muted small">{t("frame.timesIn", { timeZone: view.time_zone })}</p>
    </article>
  );
}

export const ErrorBoundary = PublicErrorBoundary;
