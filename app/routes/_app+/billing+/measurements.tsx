import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { DEFAULT_PICTURE_PLAN, isPicturePlanId, pricing } from "~/domain/billing";
import { pictureCreditStatus } from "~/models/billing.server";
import { checkoutPicturePackage } from "~/services/billing/actions.server";
import { requireAppAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { unknownIntent } from "~/utils/errors";
import { PicturePackageSchema } from "~/utils/schemas/billing";
import { formIntent, parseForm } from "./__form.server";

// Picture packages (pay as you go): the remaining measurements and PLAN_10..PLAN_200. ?p=PLAN_x
// opens the purchase dialog for that package.

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const p = new URL(request.url).searchParams.get("p");
  return json({
    credits: await pictureCreditStatus(db(), ctx),
    plans: pricing().picture_plans,
    selected: isPicturePlanId(p) ? p : null,
    locale: ctx.user.locale,
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const form = Object.fromEntries(await request.formData());
  if (form.intent !== "buy") unknownIntent();
  return formIntent("/billing/measurements", async () => {
    const input = parseForm(PicturePackageSchema, { package_id: form.package_id });
    return redirect((await checkoutPicturePackage(db(), ctx, input.package_id)).redirect_url);
  });
}

export default function PicturePackages() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("billing");
  const money = (v: number) => new Intl.NumberFormat(data.locale, { style: "currency", currency: "EUR" }).format(v);
  const selected = data.plans.find((p) => p.package_id === data.selected);
  return (
    <div className="billing-measurements">
      <p className="billing-remaining" data-testid="remaining-big">
        {t("measurements.remaining", { count: data.credits.remaining })}
      </p>
      {data.credits.lastDayWarning ? (
        <div className="alert alert-warning">
          {data.credits.remaining === 0 ? t("header.noneLeft") : t("header.lastDayHint")}
        </div>
      ) : null}
      <div className="billing-cards">
        {data.plans.map((p) => (
          <article
            key={p.package_id}
            className={`billing-card ${p.package_id === DEFAULT_PICTURE_PLAN ? "billing-card-active" : ""}`}
            data-testid={`picture-${p.package_id}`}
          >
            <h3>{t("measurements.pictures", { count: p.pictures })}</h3>
            <p className="billing-price">{money(p.price)}</p>
            <p className="muted">{t("measurements.perPicture", { price: money(p.price_per_picture) })}</p>
            <Link
              to={`?p=${p.package_id}`}
              className="btn btn-primary btn-small"
              data-testid={`choose-${p.package_id}`}
            >
              {t("measurements.choose")}
            </Link>
          </article>
        ))}
      </div>
      {selected ? (
        <dialog open className="billing-dialog" data-testid="picture-dialog" aria-labelledby="picture-title">
          <h2 id="picture-title">{t("measurements.dialogTitle")}</h2>
          <p>{t("measurements.dialogText", { count: selected.pictures, price: money(selected.price) })}</p>
          <div className="billing-dialog-actions">
            <Form method="post">
              <input type="hidden" name="intent" value="buy" />
              <input type="hidden" name="package_id" value={selected.package_id} />
              <button type="submit" className="btn btn-primary" data-testid="picture-buy">
                {t("measurements.buy")}
              </button>
            </Form>
            <Link to="/billing/measurements" className="btn">
              {t("pending.later")}
            </Link>
          </div>
        </dialog>
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
