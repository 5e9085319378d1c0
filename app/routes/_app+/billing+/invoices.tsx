import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatDate } from "~/components/billing/shell-billing";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { EmptyState } from "~/components/ui/empty-state";
import {
  getBillingAccount,
  getInvoice,
  isStripeInvoice,
  listInvoices,
  setInvoiceStatus,
} from "~/models/billing.server";
import { requireAppAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { notFound, unknownIntent } from "~/utils/errors";
import { redirectWithToast } from "~/utils/toast.server";

// The invoices table: paid, open (pay button), void (view button).

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const account = await getBillingAccount(db(), ctx);
  return json({
    invoices: await listInvoices(db(), ctx),
    locale: ctx.user.locale,
    provider: account?.provider ?? "local",
  });
}

/** intent=pay: the local provider's payment of an open invoice (Stripe invoices are paid on Stripe's page). */
export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const form = await request.formData();
  if (form.get("intent") !== "pay") unknownIntent();
  const id = Number(form.get("invoice_id"));
  const invoice = Number.isInteger(id) && id > 0 ? await getInvoice(db(), ctx, id) : null;
  if (!invoice) notFound();
  if (invoice.status !== "open" || (await isStripeInvoice(db(), ctx, id))) {
    return redirectWithToast("/billing/invoices", { type: "error", key: "billing:errors.notPayable" });
  }
  await setInvoiceStatus(db(), ctx, id, "paid");
  return redirectWithToast("/billing/invoices", {
    type: "success",
    key: "billing:toast.paid",
    values: { number: invoice.number },
  });
}

const STATUS = { paid: "badge-success", open: "badge-warning", void: "badge-secondary" } as const;

export default function Invoices() {
  const { invoices, locale } = useLoaderData<typeof loader>();
  const { t } = useTranslation("billing");
  if (invoices.length === 0)
    return <EmptyState title={t("invoices.emptyTitle")} text={t("invoices.emptyText")} testId="invoices-empty" />;
  const money = (v: number, currency: string) =>
    new Intl.NumberFormat(locale, { style: "currency", currency }).format(v);
  return (
    <div className="table-wrap">
      <table className="table" data-testid="invoices-table">
        <thead>
          <tr>
            <th>{t("invoices.number")}</th>
            <th>{t("invoices.date")}</th>
            <th>{t("invoices.lines")}</th>
            <th className="num">{t("invoices.total")}</th>
            <th>{t("invoices.status")}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {invoices.map((inv) => (
            <tr key={inv.id} id={`invoice-${inv.number}`} data-testid={`invoice-${inv.number}`}>
              <td>{inv.number}</td>
              <td>{formatDate(new Date(inv.created_at * 1000).toISOString(), locale)}</td>
              <td>
                {inv.lines
                  .map((l) => `${t(`packages.${l.description}.name`, { defaultValue: l.description })} × ${l.quantity}`)
                  .join(", ")}
              </td>
              <td className="num">{money(inv.total, inv.currency)}</td>
              <td>
                <span className={`badge ${STATUS[inv.status]}`} data-testid="invoice-status">
                  {t(`invoices.statuses.${inv.status}`)}
                </span>
              </td>
              <td>
                {inv.status === "open" ? (
                  inv.url && /^https?:/.test(inv.url) ? (
                    <a className="btn btn-primary btn-small" href={inv.url}>
                      {t("invoices.pay")}
                    </a>
                  ) : (
                    <Form method="post">
                      <input type="hidden" name="intent" value="pay" />
                      <input type="hidden" name="invoice_id" value={inv.id} />
                      <button type="submit" className="btn btn-primary btn-small" data-testid="pay-invoice">
                        {t("invoices.pay")}
                      </button>
                    </Form>
                  )
                ) : inv.url && /^https?:/.test(inv.url) ? (
                  <a className="btn btn-small" href={inv.url}>
                    {t("invoices.view")}
                  </a>
                ) : (
                  <a className="btn btn-small" href={`#invoice-${inv.number}`}>
                    {t("invoices.view")}
                  </a>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
