import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { StorageStateBadge } from "~/components/timber/storages-table";
import { EmptyState } from "~/components/ui/empty-state";
import { formatCoordinate } from "~/domain";
import { intlLocale } from "~/i18n";
import { listStorages } from "~/models/lookup.server";
import { requireAppAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";

// The organisation's storages (yards, landings, warehouses) for admins: state, location, and
// the way to create, edit or share each one. Volumes live on the timber dashboard.

export const handle = { i18n: ["timber", "shell", "lookups"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const storages = await listStorages(db(), ctx);
  return json({
    locale: ctx.user.locale,
    defaultStorageId: ctx.organization.default_storage_id,
    storages: storages.map((s) => ({
      id: s.id,
      name: s.name,
      state: s.storage_state_id,
      latitude: s.latitude,
      longitude: s.longitude,
    })),
  });
}

export default function StoragesPage() {
  const { storages, locale, defaultStorageId } = useLoaderData<typeof loader>();
  const { t } = useTranslation(["timber", "shell"]);
  const newButton = (
    <Link className="btn btn-primary" to="/storages/new">
      {t("timber:newStorage")}
    </Link>
  );
  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title">{t("shell:screens.storages.title")}</h1>
        <div className="page-actions">{newButton}</div>
      </div>
      {storages.length === 0 ? (
        <EmptyState title={t("shell:screens.emptyTitle")} text={t("shell:screens.storages.empty")}>
          {newButton}
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="storages-list">
            <thead>
              <tr>
                <th>{t("timber:storage.name")}</th>
                <th>{t("timber:storage.state")}</th>
                <th className="num">{t("timber:fields.latitude")}</th>
                <th className="num">{t("timber:fields.longitude")}</th>
              </tr>
            </thead>
            <tbody>
              {storages.map((s) => (
                <tr key={s.id}>
                  <td>
                    <Link to={`/storages/${s.id}`}>{s.name}</Link>
                    {s.id === defaultStorageId ? <span className="muted"> · {t("timber:table.default")}</span> : null}
                  </td>
                  <td>
                    <StorageStateBadge state={s.state} />
                  </td>
                  <td className="num">{formatCoordinate(s.latitude, { locale: intlLocale(locale) })}</td>
                  <td className="num">{formatCoordinate(s.longitude, { locale: intlLocale(locale) })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
