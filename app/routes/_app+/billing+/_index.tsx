import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { formatDate } from "~/components/billing/shell-billing";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { Field } from "~/components/ui/field";
import {
  BUNDLE_IDS,
  displayMonthlyPrice,
  PACKAGES,
  PLAN_IDS,
  TRIAL_MAX_SEATS,
  TRIAL_PLAN_IDS,
  type PackageId,
} from "~/domain/billing";
import { getInvoice, type ItemView } from "~/models/billing.server";
import {
  addSubscriptionItem,
  billingState,
  cancelSubscriptionItem,
  checkoutSubscription,
  customerPortal,
  previewSubscriptionItem,
  updateSubscriptionItem,
} from "~/services/billing/actions.server";
import { billingProvider } from "~/services/billing/index.server";
import { requireAppAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { unknownIntent } from "~/utils/errors";
import {
  AddItemSchema,
  CheckoutFormSchema,
  checkoutFormPayload,
  CheckoutSubscriptionSchema,
  TrialFormSchema,
  trialFormPayload,
  UpdateItemSchema,
} from "~/utils/schemas/billing";
import { redirectWithToast } from "~/utils/toast.server";
import { useHydrated } from "~/utils/use-hydrated";
import { formIntent, parseForm } from "./__form.server";

// The overview: the subscription status card, plan cards and add-on bundle cards, the trial
// dialog, and the pending-invoice dialog after adding an item to a live subscription.

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const url = new URL(request.url);
  const state = await billingState(db(), ctx);
  // Yearly by default; with a live subscription its own interval (what adding an item costs).
  const live = state.info.status === "active" || state.info.status === "trialing";
  const asked = url.searchParams.get("cycle");
  const cycle =
    asked === "month" || asked === "year" ? asked : live && state.info.interval === "month" ? "month" : "year";
  const pendingId = Number(url.searchParams.get("pending"));
  const pending = Number.isInteger(pendingId) && pendingId > 0 ? await getInvoice(db(), ctx, pendingId) : null;
  return json({
    ...state,
    cycle,
    locale: ctx.user.locale,
    provider: billingProvider(db()).name,
    pending: pending?.status === "open" ? pending : null,
    checkout: url.searchParams.get("checkout"),
  });
}

/** A refused form: its errors beside its fields, what was typed kept (`package_id` says which card's form). */
type Refused = { intent: string; package_id?: string; result: SubmissionResult<string[]> };
const refuse = (intent: string, submission: { reply: () => SubmissionResult<string[]> }, packageId?: unknown) =>
  json<Refused>(
    { intent, package_id: typeof packageId === "string" ? packageId : undefined, result: submission.reply() },
    { status: 422 },
  );

// Bad input comes back beside the fields; a billing rule the request breaks answers with an error toast.
export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const packageId = form.get("package_id");
  const back = "/billing";
  return formIntent(back, async () => {
    switch (intent) {
      case "checkout": {
        const submission = parseWithZod(form, { schema: CheckoutFormSchema });
        if (submission.status !== "success") return refuse(intent, submission, packageId);
        const input = parseForm(CheckoutSubscriptionSchema, checkoutFormPayload(submission.value));
        return redirect((await checkoutSubscription(db(), ctx, input)).redirect_url);
      }
      case "trial": {
        const submission = parseWithZod(form, { schema: TrialFormSchema });
        if (submission.status !== "success") return refuse(intent, submission);
        const input = parseForm(CheckoutSubscriptionSchema, trialFormPayload(submission.value));
        return redirect((await checkoutSubscription(db(), ctx, input)).redirect_url);
      }
      case "add": {
        const submission = parseWithZod(form, { schema: AddItemSchema });
        if (submission.status !== "success") return refuse(intent, submission, packageId);
        const { invoice } = await addSubscriptionItem(db(), ctx, submission.value);
        if (invoice) return redirect(`/billing?pending=${invoice.id}`);
        return redirectWithToast(back, { type: "success", key: "billing:toast.added" });
      }
      case "preview": {
        const submission = parseWithZod(form, { schema: UpdateItemSchema });
        if (submission.status !== "success") return refuse(intent, submission, packageId);
        const input = submission.value;
        const { amount_due } = await previewSubscriptionItem(db(), ctx, input);
        return json({ preview: { package_id: input.package_id, quantity: input.quantity, amount_due } });
      }
      case "update": {
        // The preview's confirmation: hidden fields of an answer the server gave, nothing typed.
        const input = parseForm(UpdateItemSchema, Object.fromEntries(form));
        const { invoice } = await updateSubscriptionItem(db(), ctx, input);
        if (invoice) return redirect(`/billing?pending=${invoice.id}`);
        return redirectWithToast(back, { type: "success", key: "billing:toast.updated" });
      }
      case "cancel": {
        await cancelSubscriptionItem(db(), ctx, String(packageId ?? ""));
        return redirectWithToast(back, { type: "success", key: "billing:toast.cancelled" });
      }
      case "portal":
        return redirect((await customerPortal(db(), ctx)).portal_url);
      default:
        unknownIntent();
    }
  });
}

/** The refused form's reply, when it is this form's (the intent and, on a card, its package). */
function useRefused(intent: string, packageId?: string) {
  const data = useActionData<typeof action>() as Partial<Refused> | undefined;
  return data?.intent === intent && data.package_id === packageId ? data.result : undefined;
}

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

const money = (value: number, locale: string, digits = 2) =>
  new Intl.NumberFormat(locale, {
    style: "currency",
    currency: "EUR",
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);

export default function BillingOverview() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("billing");
  const live = data.info.status === "active" || data.info.status === "trialing";
  const muted = data.info.cancel_at_period_end || data.info.status === "canceled";
  const itemOf = (id: string) => data.items.find((i) => i.package_id === id);
  return (
    <div className="billing-overview">
      {data.checkout === "success" && data.provider === "stripe" && !live ? (
        <div className="alert alert-info" data-testid="checkout-processing">
          {t("overview.processing")}
        </div>
      ) : null}
      <StatusCard data={data} />
      {data.info.status === "canceled" ? (
        <div className="alert alert-warning" data-testid="canceled-notice">
          {t("overview.canceledNotice")}
        </div>
      ) : null}
      {!live && !data.info.trial_used ? <TrialDialog /> : null}
      <div className="cycle-toggle" role="group" aria-label={t("overview.cycle")}>
        <Link
          to="?cycle=year"
          className={`btn btn-small ${data.cycle === "year" ? "btn-primary" : ""}`}
          data-testid="cycle-year"
        >
          {t("overview.yearly")}
        </Link>
        <Link
          to="?cycle=month"
          className={`btn btn-small ${data.cycle === "month" ? "btn-primary" : ""}`}
          data-testid="cycle-month"
        >
          {t("overview.monthly")}
        </Link>
      </div>
      <section className={`billing-section ${muted ? "billing-muted" : ""}`} data-testid="plans">
        <h2>{t("overview.plans")}</h2>
        <div className="billing-cards">
          {PLAN_IDS.map((id) => (
            <PackageCard key={id} id={id} item={itemOf(id)} data={data} live={live} />
          ))}
        </div>
      </section>
      <section className={`billing-section ${muted ? "billing-muted" : ""}`} data-testid="bundles">
        <h2>{t("overview.bundles")}</h2>
        <div className="billing-cards">
          {BUNDLE_IDS.map((id) => (
            <PackageCard key={id} id={id} item={itemOf(id)} data={data} live={live} />
          ))}
        </div>
      </section>
      {data.pending ? (
        <PendingInvoiceDialog invoice={data.pending} locale={data.locale} provider={data.provider} />
      ) : null}
    </div>
  );
}

function StatusCard({ data }: { data: Data }) {
  const { t } = useTranslation("billing");
  const s = data.info.status;
  return (
    <section className="billing-status card" data-testid="status-card">
      <div>
        <h2>{t("overview.subscription")}</h2>
        {s ? (
          <span
            className={`badge ${s === "active" ? "badge-success" : s === "trialing" ? "badge-info" : "badge-secondary"}`}
            data-testid="status-card-badge"
          >
            {t(`status.${s}`)}
          </span>
        ) : (
          <span className="muted" data-testid="no-subscription">
            {t("overview.none")}
          </span>
        )}
        {s === "trialing" && data.info.trial_end ? (
          <span className="muted">
            {" "}
            {t("status.trialEnds", { date: formatDate(data.info.trial_end, data.locale) })}
          </span>
        ) : null}
        {data.info.cancel_at_period_end && data.info.paid_until ? (
          <span className="badge badge-warning" data-testid="cancels-on">
            {t("status.cancelsOn", { date: formatDate(data.info.paid_until, data.locale) })}
          </span>
        ) : null}
      </div>
      {s ? (
        <dl className="billing-facts">
          <dt>{t("overview.interval")}</dt>
          <dd>{data.info.interval ? t(`overview.${data.info.interval === "year" ? "yearly" : "monthly"}`) : "-"}</dd>
          <dt>{t("overview.paidUntil")}</dt>
          <dd>{formatDate(data.info.paid_until, data.locale) || "-"}</dd>
          <dt>{t("overview.collection")}</dt>
          <dd>
            {t(
              `overview.collectionMethods.${data.info.collection_method === "send_invoice" ? "send_invoice" : "charge_automatically"}`,
            )}
          </dd>
        </dl>
      ) : null}
      {s ? (
        <Form method="post">
          <input type="hidden" name="intent" value="portal" />
          <button type="submit" className="btn btn-small" data-testid="customer-portal">
            {t("overview.portal")}
          </button>
        </Form>
      ) : null}
    </section>
  );
}

function PackageCard({
  id,
  item,
  data,
  live,
}: {
  id: PackageId;
  item: ItemView | undefined;
  data: Data;
  live: boolean;
}) {
  const { t } = useTranslation("billing");
  const def = PACKAGES[id];
  const price = displayMonthlyPrice(id, data.cycle === "month" ? "month" : "year");
  const active = item && !item.cancelled;
  const trialBlocked = id === "duplicate_storage_measurements_bundle" && data.info.status === "trialing";
  return (
    <article className={`billing-card ${active ? "billing-card-active" : ""}`} data-testid={`package-${id}`}>
      <h3>{t(`packages.${id}.name`)}</h3>
      <p className="muted">{t(`packages.${id}.text`)}</p>
      <p className="billing-price">
        {price === null ? t("overview.onRequest") : t("overview.perMonth", { price: money(price, data.locale, 0) })}
        {price !== null && def.perSeat ? <span className="muted"> {t("overview.perSeat")}</span> : null}
      </p>
      {item ? (
        <p>
          <span className={`badge ${item.cancelled ? "badge-secondary" : "badge-success"}`} data-testid="item-state">
            {item.cancelled ? t("items.cancelled") : t("items.active")}
          </span>{" "}
          {def.perSeat ? <span data-testid="item-quantity">{t("items.seats", { count: item.quantity })}</span> : null}
        </p>
      ) : null}
      {price === null ? (
        <a className="btn btn-small" href="mailto:sales@timber.example?subject=Enterprise">
          {t("overview.contact")}
        </a>
      ) : trialBlocked && !active ? (
        <p className="alert alert-info" data-testid="duplicate-trial-info">
          {t("errors.duplicateStorageTrial")}
        </p>
      ) : !live ? (
        <BuyForm id={id} intent="checkout" period={data.cycle === "year" ? 12 : 1} />
      ) : active ? (
        <ChangeQuantity id={id} item={item} locale={data.locale} />
      ) : (
        <BuyForm id={id} intent="add" />
      )}
    </article>
  );
}

/** A card's "buy" (no subscription yet: checkout) or "add" (to the live subscription) form. */
function BuyForm({ id, intent, period }: { id: PackageId; intent: "checkout" | "add"; period?: number }) {
  const { t } = useTranslation("billing");
  // Both are flat objects of these fields ("add" has no period).
  const schema = (intent === "checkout" ? CheckoutFormSchema : AddItemSchema) as typeof CheckoutFormSchema;
  const [form, fields] = useForm({
    id: `${intent}-${id}`,
    lastResult: useRefused(intent, id),
    defaultValue: { package_id: id, quantity: "1", period: period === undefined ? undefined : String(period) },
    constraint: getZodConstraint(schema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  return (
    <Form method="post" className="billing-buy" {...getFormProps(form)}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="package_id" value={id} />
      {period === undefined ? null : <input type="hidden" name="period" value={period} />}
      {PACKAGES[id].perSeat ? (
        <QuantityField
          label={t("items.quantity")}
          inputProps={getInputProps(fields.quantity, { type: "number" })}
          errors={fields.quantity.errors ?? fields.package_id.errors}
        />
      ) : null}
      <button
        type="submit"
        className="btn btn-primary btn-small"
        data-testid={`${intent === "checkout" ? "buy" : "add"}-${id}`}
      >
        {intent === "checkout" ? t("overview.buy") : t("overview.add")}
      </button>
    </Form>
  );
}

/** A number of devices, through the shared Field (errors are translation keys of "billing"). */
function QuantityField({
  label,
  inputProps,
  errors,
  testId,
}: {
  label: string;
  inputProps: React.InputHTMLAttributes<HTMLInputElement>;
  errors?: string[];
  testId?: string;
}) {
  const { t } = useTranslation("billing");
  return (
    <Field
      className="billing-qty"
      label={label}
      inputProps={{ min: 0, max: 1000, step: 1, ...inputProps, "data-testid": testId } as typeof inputProps}
      errors={errors?.map((e) => t(e))}
    />
  );
}

function ChangeQuantity({ id, item, locale }: { id: PackageId; item: ItemView; locale: string }) {
  const { t } = useTranslation("billing");
  const actionData = useActionData<typeof action>() as
    { preview?: { package_id: string; quantity: number; amount_due: number } } | undefined;
  const navigation = useNavigation();
  const preview = actionData?.preview?.package_id === id ? actionData.preview : null;
  const [form, fields] = useForm({
    id: `preview-${id}`,
    lastResult: useRefused("preview", id),
    defaultValue: { package_id: id, quantity: String(preview?.quantity ?? item.quantity) },
    constraint: getZodConstraint(UpdateItemSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: UpdateItemSchema }),
  });
  const [quantity, setQuantity] = useState(String(fields.quantity.initialValue ?? preview?.quantity ?? item.quantity));
  const perSeat = PACKAGES[id].perSeat;
  const hydrated = useHydrated();
  return (
    <div className="billing-change">
      {perSeat ? (
        <Form method="post" className="billing-buy" {...getFormProps(form)}>
          <input type="hidden" name="package_id" value={id} />
          <QuantityField
            label={t("items.quantity")}
            inputProps={{
              ...getInputProps(fields.quantity, { type: "number", value: false }),
              value: quantity,
              onChange: (e) => setQuantity(e.currentTarget.value),
            }}
            errors={fields.quantity.errors}
          />
          <button
            type="submit"
            name="intent"
            value="preview"
            className="btn btn-small"
            disabled={hydrated && (Number(quantity) === item.quantity || Number(quantity) < 1)}
            data-testid={`preview-${id}`}
          >
            {t("items.change")}
          </button>
        </Form>
      ) : null}
      {preview && preview.quantity !== item.quantity ? (
        <Form method="post" className="billing-preview" data-testid={`preview-result-${id}`}>
          <input type="hidden" name="package_id" value={id} />
          <input type="hidden" name="quantity" value={preview.quantity} />
          <p>{t("items.amountDue", { amount: money(preview.amount_due, locale), count: preview.quantity })}</p>
          <button
            type="submit"
            name="intent"
            value="update"
            className="btn btn-primary btn-small"
            disabled={navigation.state !== "idle"}
            data-testid={`confirm-${id}`}
          >
            {t("items.confirm")}
          </button>
        </Form>
      ) : null}
      <Form method="post">
        <input type="hidden" name="intent" value="cancel" />
        <input type="hidden" name="package_id" value={id} />
        <button type="submit" className="btn btn-ghost btn-small" data-testid={`cancel-${id}`}>
          {t("items.cancel")}
        </button>
      </Form>
    </div>
  );
}

function TrialDialog() {
  const { t } = useTranslation("billing");
  const lastResult = useRefused("trial");
  const [form, fields] = useForm({
    id: "trial",
    lastResult,
    defaultValue: {
      period: "1",
      ...Object.fromEntries(TRIAL_PLAN_IDS.map((id) => [`seats_${id}`, "0"])),
    },
    constraint: getZodConstraint(TrialFormSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TrialFormSchema }),
  });
  const seatField = (id: (typeof TRIAL_PLAN_IDS)[number]) => fields[`seats_${id}`];
  const [seats, setSeats] = useState<Record<string, number>>(() =>
    Object.fromEntries(TRIAL_PLAN_IDS.map((id) => [id, Number(seatField(id).initialValue ?? 0)])),
  );
  const total = Object.values(seats).reduce((s, n) => s + (Number.isFinite(n) ? n : 0), 0);
  const hydrated = useHydrated();
  return (
    <details className="billing-trial card" data-testid="trial-dialog" open={!!lastResult}>
      <summary className="btn btn-small">{t("trial.open")}</summary>
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="trial" />
        <input type="hidden" name="period" value={1} />
        <p>{t("trial.text", { max: TRIAL_MAX_SEATS })}</p>
        <div className="billing-trial-seats">
          {TRIAL_PLAN_IDS.map((id) => (
            <QuantityField
              key={id}
              label={t(`packages.${id}.name`)}
              testId={`trial-${id}`}
              inputProps={{
                ...getInputProps(seatField(id), { type: "number" }),
                max: TRIAL_MAX_SEATS,
                onChange: (e) => {
                  const value = Number(e.currentTarget.value);
                  setSeats((s) => ({ ...s, [id]: value }));
                },
              }}
              errors={seatField(id).errors}
            />
          ))}
        </div>
        <p className={total > TRIAL_MAX_SEATS ? "field-errors" : "muted"}>
          {t("trial.total", { count: total, max: TRIAL_MAX_SEATS })}
        </p>
        {form.errors ? (
          <ul className="field-errors" id={form.errorId}>
            {form.errors.map((e) => (
              <li key={e}>{t(e)}</li>
            ))}
          </ul>
        ) : null}
        <button
          type="submit"
          className="btn btn-primary btn-small"
          disabled={hydrated && (total < 1 || total > TRIAL_MAX_SEATS)}
          data-testid="trial-start"
        >
          {t("trial.start")}
        </button>
      </Form>
    </details>
  );
}

function PendingInvoiceDialog({
  invoice,
  locale,
  provider,
}: {
  invoice: NonNullable<Data["pending"]>;
  locale: string;
  provider: "local" | "stripe";
}) {
  const { t } = useTranslation("billing");
  return (
    <dialog open className="billing-dialog" data-testid="pending-invoice-dialog" aria-labelledby="pending-title">
      <h2 id="pending-title">{t("pending.title")}</h2>
      <p>{t("pending.text", { number: invoice.number, amount: money(invoice.total, locale) })}</p>
      <div className="billing-dialog-actions">
        {provider === "local" ? (
          <Form method="post" action="/billing/invoices">
            <input type="hidden" name="intent" value="pay" />
            <input type="hidden" name="invoice_id" value={invoice.id} />
            <button type="submit" className="btn btn-primary" data-testid="pending-pay">
              {t("invoices.pay")}
            </button>
          </Form>
        ) : invoice.url ? (
          <a className="btn btn-primary" href={invoice.url} data-testid="pending-pay">
            {t("invoices.pay")}
          </a>
        ) : null}
        <Link to="/billing" className="btn" data-testid="pending-later">
          {t("pending.later")}
        </Link>
      </div>
    </dialog>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
