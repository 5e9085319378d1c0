import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { UpsellNotice } from "~/components/accounts/custom-field-tabs";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { EmptyState } from "~/components/ui/empty-state";
import { requireAppAdmin } from "~/utils/auth.server";
import { i18nServer } from "~/utils/i18n.server";
import { gates, listRows, parseKind } from "./__timber-screens.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const kind = parseKind(params.kind);
  const gate = gates(kind, ctx.features);
  if (gate.view) return json({ gate, columns: [] as string[], rows: [] });
  const t = await i18nServer.getFixedT(ctx.user.locale, "lookups");
  return json({ gate, ...(await listRows(kind, ctx, t)) });
}

export default function TimberListPage() {
  const { t } = useTranslation("accounts");
  const { kind } = useParams();
  const { gate, columns, rows } = useLoaderData<typeof loader>();
  if (gate.view) return <UpsellNotice feature={gate.view} />;
  return (
    <>
      <div className="toolbar">
        {gate.edit ? (
          <UpsellNotice feature={gate.edit} />
        ) : (
          <Link to={`/timber/${kind}/new`} className="btn btn-primary">
            {t(`timber.new.${kind}`)}
          </Link>
        )}
      </div>
      {rows.length === 0 ? (
        <EmptyState title={t("timber.emptyTitle")} text={t(`timber.empty`)} testId="timber-empty" />
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="timber-table">
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c}>{t(`timber.columns.${c}`)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} className={r.builtIn ? "built-in" : undefined}>
                  {r.cells.map((cell, i) => (
                    <td key={i}>
                      {i === 0 ? (
                        r.builtIn || gate.edit ? (
                          <span>
                            {cell}{" "}
                            {r.builtIn ? (
                              <span className="badge" title={t("timber.builtInHint")} data-testid="built-in-marker">
                                {t("timber.builtIn")}
                              </span>
                            ) : null}
                          </span>
                        ) : (
                          <Link to={`/timber/${kind}/${r.id}`}>{cell}</Link>
                        )
                      ) : (
                        cell
                      )}
                      {i === 0 && r.archived ? (
                        <>
                          {" "}
                          <span className="badge">{t("common.archived")}</span>
                        </>
                      ) : null}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
