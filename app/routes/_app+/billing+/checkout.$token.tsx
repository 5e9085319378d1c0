import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { isPackageId, isPicturePlanId, PICTURE_PLANS, unitPrice } from "~/domain/billing";
import { billingProvider } from "~/services/billing/index.server";
import { completeLocalCheckout, getLocalCheckout } from "~/services/billing/local.server";
import { requireAppAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { notFound } from "~/utils/errors";
import type { CheckoutSubscriptionInput } from "~/utils/schemas/billing";
import { redirectWithToast } from "~/utils/toast.server";

// The local provider's checkout page (where Stripe Checkout would be): confirming is the payment.

async function load(request: Request, token: string | undefined) {
  const ctx = await requireAppAdmin(request);
  if (billingProvider(db()).name !== "local" || !token) notFound();
  const checkout = await getLocalCheckout(db(), ctx, token);
  if (!checkout) notFound();
  return { ctx, checkout };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { ctx, checkout } = await load(request, params.token);
  const lines: Array<{ id: string; quantity: number; amount: number }> = [];
  let trial = false;
  if (checkout.kind === "picture_package") {
    const id = (checkout.payload as { package_id: string }).package_id;
    if (isPicturePlanId(id)) lines.push({ id, quantity: 1, amount: PICTURE_PLANS[id].price });
  } else {
    const input = checkout.payload as CheckoutSubscriptionInput;
    trial = input.trial;
    for (const li of input.line_items) {
      if (isPackageId(li.package_id))
        lines.push({
          id: li.package_id,
          quantity: li.quantity,
          amount: trial ? 0 : (unitPrice(li.package_id, input.period === 12 ? "year" : "month") ?? 0) * li.quantity,
        });
    }
  }
  return json({ kind: checkout.kind, lines, trial, done: checkout.completed_at !== null, locale: ctx.user.locale });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { ctx, checkout } = await load(request, params.token);
  const result = await completeLocalCheckout(db(), ctx, params.token!);
  const to = checkout.kind === "picture_package" ? "/billing/measurements" : "/billing";
  return redirectWithToast(to, {
    type: result.alreadyDone ? "info" : "success",
    key: result.alreadyDone ? "billing:checkout.already" : "billing:checkout.done",
  });
}

export default function LocalCheckout() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("billing");
  const money = (v: number) => new Intl.NumberFormat(data.locale, { style: "currency", currency: "EUR" }).format(v);
  const total = data.lines.reduce((s, l) => s + l.amount, 0);
  return (
    <section className="card billing-checkout" data-testid="local-checkout">
      <h2>{t("checkout.title")}</h2>
      <p className="muted">{t("checkout.text")}</p>
      <ul>
        {data.lines.map((l) => (
          <li key={l.id}>
            {data.kind === "picture_package"
              ? t("measurements.pictures", { count: PICTURE_PLANS[l.id as keyof typeof PICTURE_PLANS].pictures })
              : t(`packages.${l.id}.name`)}{" "}
            × {l.quantity}: {money(l.amount)}
          </li>
        ))}
      </ul>
      <p>
        <strong>{data.trial ? t("checkout.trial") : t("checkout.total", { amount: money(total) })}</strong>
      </p>
      {data.done ? (
        <p className="alert alert-info">{t("checkout.already")}</p>
      ) : (
        <Form method="post" className="billing-dialog-actions">
          <button type="submit" className="btn btn-primary" data-testid="checkout-confirm">
            {t("checkout.confirm")}
          </button>
          <Link to="/billing" className="btn">
            {t("checkout.back")}
          </Link>
        </Form>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
