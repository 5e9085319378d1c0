import { parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { UpsellNotice } from "~/components/accounts/custom-field-tabs";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { requireAppAdmin, requireFeature } from "~/utils/auth.server";
import { unknownIntent } from "~/utils/errors";
import { i18nServer } from "~/utils/i18n.server";
import { TIMBER_FORM_SCHEMAS } from "~/utils/schemas/master-data";
import { redirectWithToast } from "~/utils/toast.server";
import { TimberForm } from "./__timber-form";
import { gates, loadForm, parseKind, saveForm } from "./__timber-screens.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const kind = parseKind(params.kind);
  const t = await i18nServer.getFixedT(ctx.user.locale, "lookups");
  const { options } = await loadForm(kind, ctx, t, null);
  return json({ gate: gates(kind, ctx.features), options, features: ctx.features });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const kind = parseKind(params.kind);
  const gate = gates(kind, ctx.features);
  for (const feature of [gate.view, gate.edit]) if (feature) requireFeature(ctx, feature);
  const form = await request.formData();
  if (form.get("intent") !== "save") unknownIntent();
  const submission = parseWithZod(form, { schema: TIMBER_FORM_SCHEMAS[kind] });
  if (submission.status !== "success") return json(submission.reply(), { status: 422 });
  const result = await saveForm(kind, ctx, null, submission.value);
  if ("errors" in result) return json(submission.reply({ fieldErrors: result.errors }), { status: 422 });
  return redirectWithToast(`/timber/${kind}`, { type: "success", key: "accounts:timber.created" });
}

export default function TimberNewPage() {
  const { t } = useTranslation("accounts");
  const { kind } = useParams();
  const { gate, options, features } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  if (gate.view) return <UpsellNotice feature={gate.view} />;
  return (
    <div className="page-narrow">
      <p>
        <Link to={`/timber/${kind}`}>← {t(`timber.kinds.${kind}`)}</Link>
      </p>
      <h2>{t(`timber.new.${kind}`)}</h2>
      {gate.edit ? <UpsellNotice feature={gate.edit} /> : null}
      <TimberForm
        kind={kind!}
        record={null}
        lastResult={lastResult}
        options={options}
        features={features}
        disabled={!!gate.edit}
        isNew
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
