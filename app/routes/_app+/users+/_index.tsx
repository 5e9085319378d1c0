import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { RoleBadge } from "~/components/accounts/role-badge";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { EmptyState } from "~/components/ui/empty-state";
import { listOrganizationUsers } from "~/models/user-admin.server";
import { requireAppAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";

export const handle = { i18n: ["accounts"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const q = new URL(request.url).searchParams.get("q") ?? "";
  const users = await listOrganizationUsers(db(), ctx, { q });
  return json({
    q,
    users: users.map((u) => ({
      id: u.id,
      email: u.email,
      name: u.name,
      pending: !u.verified_at,
      orgRoles: [...new Set(u.roles.filter((r) => r.assignable_type === "Organization").map((r) => r.name))],
      storageRoles: u.roles.filter((r) => r.assignable_type !== "Organization").length,
    })),
  });
}

export default function UsersPage() {
  const { t } = useTranslation("accounts");
  const { q, users } = useLoaderData<typeof loader>();
  const loading = useNavigation().state === "loading";
  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title">{t("users.title")}</h1>
        <span className="muted" data-testid="user-count">
          {t("users.count", { count: users.length })}
        </span>
        <Link to="/users/new" className="btn btn-primary">
          {t("users.invite")}
        </Link>
      </div>
      <Form method="GET" className="toolbar" role="search">
        <label className="sr-only" htmlFor="q">
          {t("users.search")}
        </label>
        <input id="q" name="q" type="search" defaultValue={q} placeholder={t("users.search")} />
        <button type="submit" className="btn">
          {t("users.searchSubmit")}
        </button>
      </Form>
      {users.length === 0 ? (
        <EmptyState
          title={t("users.emptyTitle")}
          text={q ? t("users.noMatch", { q }) : t("users.empty")}
          testId="users-empty"
        />
      ) : (
        <div className={loading ? "table-wrap is-loading" : "table-wrap"}>
          <table className="table" data-testid="users-table">
            <thead>
              <tr>
                <th>{t("users.email")}</th>
                <th>{t("users.name")}</th>
                <th>{t("users.roles")}</th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id}>
                  <td>
                    <Link to={`/users/${u.id}`}>{u.email}</Link>
                    {u.pending ? <span className="badge">{t("users.pending")}</span> : null}
                  </td>
                  <td>{u.name ?? "—"}</td>
                  <td className="role-list">
                    {u.orgRoles.map((r) => (
                      <RoleBadge key={r} name={r} />
                    ))}
                    {u.storageRoles ? (
                      <span
                        className="badge badge-info"
                        title={t("users.storageRolesHint")}
                        data-testid="storage-role-marker"
                      >
                        {t("users.storageRoles", { count: u.storageRoles })}
                      </span>
                    ) : null}
                  </td>
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
