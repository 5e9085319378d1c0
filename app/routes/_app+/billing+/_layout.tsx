import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { NavLink, Outlet, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { countOpenInvoices } from "~/models/billing.server";
import { requireAppAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { cx } from "~/utils/misc";

// /billing: tabs overview, invoices (a red badge counts open invoices) and measurements. Admins only.
export const handle = { i18n: ["billing"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  return json({ openInvoices: await countOpenInvoices(db(), ctx) });
}

export default function BillingLayout() {
  const { openInvoices } = useLoaderData<typeof loader>();
  const { t } = useTranslation("billing");
  const tab = ({ isActive }: { isActive: boolean }) => cx("tab", isActive && "active");
  // Loading state: while a billing page loads or a form is sent, the tab content is dimmed and busy.
  const busy = useNavigation().state !== "idle";
  return (
    <div className={cx("page billing-page", busy && "billing-busy")} aria-busy={busy} data-testid="billing-page">
      <h1 className="page-title">{t("title")}</h1>
      <nav className="tabs" aria-label={t("title")}>
        <NavLink to="/billing" end className={tab} data-testid="tab-overview">
          {t("tabs.overview")}
        </NavLink>
        <NavLink to="/billing/invoices" className={tab} data-testid="tab-invoices">
          {t("tabs.invoices")}
          {openInvoices > 0 ? (
            <span className="badge badge-danger" data-testid="open-invoices-badge">
              {openInvoices}
            </span>
          ) : null}
        </NavLink>
        <NavLink to="/billing/measurements" className={tab} data-testid="tab-measurements">
          {t("tabs.measurements")}
        </NavLink>
      </nav>
      <Outlet />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
