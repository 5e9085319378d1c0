import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { NavLink, Outlet } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { requireAppAdmin } from "~/utils/auth.server";
import { TIMBER_KINDS } from "~/utils/timber-kinds";

export const handle = { i18n: ["accounts", "lookups"] };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAppAdmin(request);
  return json({ kinds: TIMBER_KINDS });
}

/** /timber: tabs for species, qualities, assortments, diameter profiles, culls and lumber products. */
export default function TimberLayout() {
  const { t } = useTranslation("accounts");
  return (
    <div className="page">
      <h1 className="page-title">{t("timber.title")}</h1>
      <nav className="tabs" aria-label={t("timber.title")}>
        {TIMBER_KINDS.map((k) => (
          <NavLink key={k} to={`/timber/${k}`} className="tab" data-testid={`timber-tab-${k}`}>
            {t(`timber.kinds.${k}`)}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
