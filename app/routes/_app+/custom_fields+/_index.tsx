import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CustomFieldTabs, UpsellNotice } from "~/components/accounts/custom-field-tabs";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { EmptyState } from "~/components/ui/empty-state";
import { listCustomFields } from "~/models/custom-field.server";
import { requireAppAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";

export const handle = { i18n: ["accounts"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const enabled = ctx.features.includes("custom_fields");
  return json({ enabled, fields: enabled ? await listCustomFields(db(), ctx) : [] });
}

export default function CustomFieldsPage() {
  const { t } = useTranslation("accounts");
  const { enabled, fields } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <h1 className="page-title">{t("customFields.title")}</h1>
      {!enabled ? (
        <UpsellNotice feature="custom_fields" />
      ) : (
        <>
          <CustomFieldTabs />
          {fields.length === 0 ? (
            <EmptyState
              title={t("customFields.emptyTitle")}
              text={t("customFields.empty")}
              testId="custom-fields-empty"
            />
          ) : (
            <div className="table-wrap">
              <table className="table" data-testid="custom-fields-table">
                <thead>
                  <tr>
                    <th>{t("customFields.name")}</th>
                    <th>{t("customFields.key")}</th>
                    <th>{t("customFields.source")}</th>
                    <th>{t("customFields.type")}</th>
                    <th>{t("customFields.flags")}</th>
                  </tr>
                </thead>
                <tbody>
                  {fields.map((f) => (
                    <tr key={f.id}>
                      <td>
                        <Link to={`/custom_fields/${f.id}`}>{f.name}</Link>
                      </td>
                      <td>
                        <code>{f.key}</code>
                      </td>
                      <td>{t(`customFields.sources.${f.source_key}`)}</td>
                      <td>{t(`customFields.types.${f.data_type}`)}</td>
                      <td className="role-list">
                        {f.required ? <span className="badge badge-warning">{t("customFields.required")}</span> : null}
                        {f.searchable ? <span className="badge">{t("customFields.searchable")}</span> : null}
                        {f.archived ? <span className="badge">{t("common.archived")}</span> : null}
                        {f.values.length ? (
                          <span className="badge badge-info">
                            {t("customFields.valuesCount", { count: f.values.length })}
                          </span>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
