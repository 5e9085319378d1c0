import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { Field } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select-field";
import { listStorages } from "~/models/lookup.server";
import { ensureLabelLinks, labelTargets } from "~/models/qr-labels.server";
import { qrLabelsPdf } from "~/services/exports/labels/qr-labels-pdf.server";
import { requestExport } from "~/services/exports.server";
import { addJob } from "~/services/jobs.server";
import { requireAppUser, requireFeature } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { ForbiddenError } from "~/utils/errors";
import { LABEL_SIZE_KEYS, QrLabelsSchema } from "~/utils/schemas/qr-labels";
import { redirectWithToast } from "~/utils/toast.server";

// /qr_labels (feature qr_code): choose storages and measurements and a label size; the PDF of
// labels is made as an export (qr_labels_pdf) and appears in /exports with its live notice.
// The same schema as POST /pdf_exports; works without JavaScript.

export const handle = { i18n: ["exports"] };

// The browser's constraints: conform cannot read the id lists' preprocess, and the lists are
// checked on the server anyway; the label size is required.
const LABELS_CONSTRAINT = getZodConstraint(z.object({ label_size: z.enum(LABEL_SIZE_KEYS) }));

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  if (!ctx.features.includes("qr_code")) return json({ enabled: false as const });
  const url = new URL(request.url);
  const storages = await listStorages(db(), ctx);
  return json({
    enabled: true as const,
    storages: storages.map((s) => ({ id: s.id, name: s.name })),
    // A link from a screen may preselect: ?storage_ids=1,2 or ?measurement_ids=3
    preset: {
      storage_ids: (url.searchParams.get("storage_ids") ?? "").split(",").filter(Boolean),
      measurement_ids: url.searchParams.get("measurement_ids") ?? "",
    },
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireAppUser(request);
  requireFeature(ctx, "qr_code");
  const submission = parseWithZod(await request.formData(), { schema: QrLabelsSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 422 });
  const selection = submission.value;
  const targets = await labelTargets(db(), ctx, selection);
  const found = new Set(targets.map((t) => `${t.kind}:${t.id}`));
  if (selection.measurement_ids.some((id) => !found.has(`measurement:${id}`)))
    return json(submission.reply({ fieldErrors: { measurement_ids: ["exports:errors.unknownIds"] } }), { status: 422 });
  if (selection.storage_ids.some((id) => !found.has(`storage:${id}`)))
    return json(submission.reply({ fieldErrors: { storage_ids: ["exports:errors.unknownIds"] } }), { status: 422 });
  try {
    await ensureLabelLinks(db(), { ...ctx, timeZone: ctx.user.time_zone }, targets);
  } catch (error) {
    if (!(error instanceof ForbiddenError)) throw error;
    return json(submission.reply({ fieldErrors: { storage_ids: ["exports:errors.shareRequired"] } }), { status: 422 });
  }
  await requestExport(db(), ctx, addJob, { type: qrLabelsPdf, selection });
  return redirectWithToast("/exports", { type: "info", key: "exports:toast.preparing" });
}

export default function QrLabelsPage() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("exports");
  if (!data.enabled) {
    return (
      <div className="page">
        <h1 className="page-title">{t("labels.title")}</h1>
        <div className="alert alert-warning" role="status" data-testid="billing-warning">
          {t("labels.unavailable")} <a href="/billing">{t("labels.billingLink")}</a>
        </div>
      </div>
    );
  }
  return <LabelsForm storages={data.storages} preset={data.preset} />;
}

function LabelsForm({
  storages,
  preset,
}: {
  storages: Array<{ id: number; name: string }>;
  preset: { storage_ids: string[]; measurement_ids: string };
}) {
  const { t } = useTranslation("exports");
  const lastResult = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const [form, fields] = useForm<{ storage_ids: string[]; measurement_ids: string; label_size: string }>({
    id: "qr-labels",
    lastResult,
    defaultValue: { storage_ids: preset.storage_ids, measurement_ids: preset.measurement_ids, label_size: "a4_3x8" },
    constraint: LABELS_CONSTRAINT,
    // Checked on the server (the same schema as the API); the answer keeps the typed values.
  });
  const err = (k: keyof typeof fields) => fields[k].errors?.map((e) => t(e, { max: 240 }));
  const chosen = new Set(
    ([] as Array<string | undefined>).concat(fields.storage_ids.initialValue as string[] | string | undefined),
  );
  const storageErrors = err("storage_ids");
  return (
    <div className="page page-narrow">
      <h1 className="page-title">{t("labels.title")}</h1>
      <p className="muted">{t("labels.intro")}</p>
      <Form method="POST" className="card" data-testid="qr-labels-form" {...getFormProps(form)}>
        <fieldset className="field" aria-describedby={storageErrors?.length ? "storage_ids-error" : undefined}>
          <legend className="field-label">{t("labels.storages")}</legend>
          {storages.length === 0 ? <p className="muted">{t("labels.noStorages")}</p> : null}
          {storages.map((s) => (
            <label key={s.id} className="checkbox">
              <input
                type="checkbox"
                name={fields.storage_ids.name}
                value={s.id}
                defaultChecked={chosen.has(String(s.id))}
                data-testid={`label-storage-${s.id}`}
              />{" "}
              {s.name}
            </label>
          ))}
          {storageErrors?.length ? (
            <ul id="storage_ids-error" className="field-errors">
              {storageErrors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          ) : null}
        </fieldset>
        <Field
          label={t("labels.measurementIds")}
          inputProps={getInputProps(fields.measurement_ids, { type: "text" })}
          errors={err("measurement_ids")}
          hint={t("labels.measurementIdsHint")}
        />
        <SelectField
          label={t("labels.size")}
          selectProps={getSelectProps(fields.label_size)}
          options={LABEL_SIZE_KEYS.map((k) => [k, t(`labels.sizes.${k}`)])}
          errors={err("label_size")}
        />
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy} data-testid="qr-labels-submit">
            {t("labels.submit")}
          </button>
        </div>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
