import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { IdleLogout } from "~/components/accounts/idle-logout";
import { BillingBanners, HeaderBilling } from "~/components/billing/shell-billing";
import { ExportNotices } from "~/components/exports/export-notices";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { Header } from "~/components/shell/header";
import { Sidebar } from "~/components/shell/sidebar";
import { countUnseenReports } from "~/models/report.server";
import { readDismissed } from "~/routes/banners.dismiss";
import { shellBilling } from "~/services/billing/actions.server";
import { requireAppUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { useLiveRevalidate } from "~/utils/use-live-revalidate";

export const handle = { i18n: ["shell", "measurements", "exports", "billing", "accounts"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  const url = new URL(request.url);
  return json({
    billing: await shellBilling(db(), ctx),
    dismissedBanners: await readDismissed(request),
    returnTo: url.pathname + url.search,
    user: {
      id: ctx.user.id,
      email: ctx.user.email,
      name: ctx.user.name,
      locale: ctx.user.locale,
      timeZone: ctx.user.time_zone,
      roundingPrecision: ctx.user.rounding_precision,
      volumeUnit: ctx.user.volume_unit,
    },
    organization: { id: ctx.organization.id, name: ctx.organization.name },
    organizations: ctx.organizations,
    isAdmin: ctx.isAdmin,
    features: ctx.features,
    cmpcEnabled: ctx.organization.cmpc_enabled,
    // Finished reports the organisation's admins have not opened (docs/decisions/021-reports.md).
    unseenReports: ctx.isAdmin && ctx.features.includes("reports") ? await countUnseenReports(db(), ctx) : 0,
  });
}

export type AppLoader = typeof loader;

export default function AppShell() {
  const data = useLoaderData<typeof loader>();
  // The reports badge is live: a finished report (storage-report-updated) reloads the shell's count.
  useLiveRevalidate(
    data.isAdmin && data.features.includes("reports") ? `organization:${data.organization.id}` : null,
    "storage-report-updated",
  );
  return (
    <div className="app">
      {/* A checkbox drives the collapsible sidebar on tablets, so it works without JavaScript. */}
      <input type="checkbox" id="nav-toggle" className="nav-toggle" hidden />
      <Header user={data.user} organization={data.organization} organizations={data.organizations}>
        <HeaderBilling billing={data.billing} isAdmin={data.isAdmin} locale={data.user.locale} />
      </Header>
      <div className="app-body">
        <Sidebar
          isAdmin={data.isAdmin}
          cmpcEnabled={data.cmpcEnabled}
          features={data.features}
          unseenReports={data.unseenReports}
        />
        <main className="app-main" id="main">
          <BillingBanners
            billing={data.billing}
            isAdmin={data.isAdmin}
            dismissed={data.dismissedBanners}
            returnTo={data.returnTo}
          />
          <Outlet />
        </main>
      </div>
      {/* The owner's export-ready notices (user channel), on every screen of the shell. */}
      <ExportNotices userId={data.user.id} />
      <IdleLogout />
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <main className="error-page">
      <GeneralErrorBoundary />
    </main>
  );
}
