import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { Field } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select-field";
import { canEdit } from "~/models/measurement-kind.server";
import { getStorage } from "~/models/storage.server";
import { listTimberLookups } from "~/models/timber-lookups.server";
import { createManualMeasurement } from "~/models/timber.server";
import { requireAppUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { errorResponse, forbidden, notFound, ValidationError } from "~/utils/errors";
import { measurementTypeName } from "~/utils/lookup-name";
import { manualMeasurementFormSchema, MEASUREMENT_TYPE_IDS } from "~/utils/schemas/timber";
import { dateToZonedLocal } from "~/utils/timber-dates";
import { redirectWithToast } from "~/utils/toast.server";

// A manual measurement into a storage (from the storage row's menu): a stated volume in m³,
// not dated before the storage's last confirmed inventory. POST /manual_measurements's fields,
// validated by the same schema (conform: the errors beside the fields, typed values kept, also
// without JavaScript).

export const handle = { i18n: ["timber", "lookups"] };

async function storageFor(request: Request) {
  const ctx = await requireAppUser(request);
  const id = Number(new URL(request.url).searchParams.get("storage_id"));
  const storage = Number.isInteger(id) && id > 0 ? await getStorage(db(), ctx, id) : undefined;
  if (!storage) notFound();
  if (!canEdit(ctx, storage)) forbidden();
  return { ctx, storage };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { ctx, storage } = await storageFor(request);
  const lookups = await listTimberLookups(db(), ctx);
  return json({
    storage: { id: storage.id, name: storage.name },
    timeZone: ctx.user.time_zone,
    minTakenAt: storage.last_inventory_confirmed_at
      ? dateToZonedLocal(storage.last_inventory_confirmed_at, ctx.user.time_zone)
      : null,
    now: dateToZonedLocal(new Date(), ctx.user.time_zone),
    assortments: lookups.assortments.filter((a) => !a.archived).map((a) => ({ id: a.id, name: a.name })),
  });
}

/** The model's field errors are keyed by the API's payload path; the form's fields have the bare names. */
function formFieldErrors(errors: Record<string, string[]>) {
  return Object.fromEntries(Object.entries(errors).map(([k, v]) => [k.replace(/^manual_measurement\./, ""), v]));
}

export async function action({ request }: ActionFunctionArgs) {
  const { ctx, storage } = await storageFor(request);
  const formData = await request.formData();
  const volume = formData.get("volume");
  // A decimal comma is what many users type; the number input sends it as written without JavaScript.
  if (typeof volume === "string") formData.set("volume", volume.replace(",", "."));
  const submission = parseWithZod(formData, { schema: manualMeasurementFormSchema(ctx.user.time_zone) });
  if (submission.status !== "success") return json(submission.reply(), { status: 422 });
  try {
    await createManualMeasurement(db(), ctx, { ...submission.value, storage_id: storage.id });
  } catch (error) {
    if (error instanceof ValidationError)
      return json(submission.reply({ fieldErrors: formFieldErrors(error.errors) }), { status: 422 });
    throw errorResponse(error) ?? error;
  }
  return redirectWithToast(`/measurements/timber?open=${storage.id}`, {
    type: "success",
    key: "timber:manual.created",
  });
}

export default function ManualMeasurement() {
  const data = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation("timber");
  const schema = manualMeasurementFormSchema(data.timeZone);
  const [form, fields] = useForm({
    id: "manual-measurement",
    lastResult,
    constraint: getZodConstraint(schema),
    defaultValue: { taken_at: data.now },
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const errors = (list: string[] | undefined) => list?.map((e) => t(e));
  return (
    <div className="page narrow-page">
      <div className="page-header">
        <h1 className="page-title">{t("manual.title", { storage: data.storage.name })}</h1>
        <Link className="btn" to="/measurements/timber">
          {t("detail.back")}
        </Link>
      </div>
      <Form method="post" className="card form-grid" data-testid="manual-form" {...getFormProps(form)}>
        <Field
          label={t("manual.takenAt")}
          inputProps={{
            ...getInputProps(fields.taken_at, { type: "datetime-local" }),
            min: data.minTakenAt ?? undefined,
          }}
          hint={data.minTakenAt ? t("manual.minHint", { date: data.minTakenAt.replace("T", " ") }) : undefined}
          errors={errors(fields.taken_at.errors)}
        />
        <SelectField
          label={t("fields.type")}
          selectProps={getSelectProps(fields.measurement_type_id)}
          placeholder={t("manual.chooseType")}
          placeholderDisabled
          options={MEASUREMENT_TYPE_IDS.map((id) => [id, measurementTypeName(t, id)])}
          errors={errors(fields.measurement_type_id.errors)}
        />
        <Field
          label={t("manual.volume")}
          inputProps={{ ...getInputProps(fields.volume, { type: "number" }), step: "any", inputMode: "decimal" }}
          errors={errors(fields.volume.errors)}
        />
        <SelectField
          label={t("fields.assortment")}
          selectProps={getSelectProps(fields.wood_characteristic_id)}
          placeholder={t("none")}
          options={data.assortments.map((a) => [a.id, a.name])}
          errors={errors(fields.wood_characteristic_id.errors)}
        />
        <div className="field">
          <label htmlFor={fields.comment.id}>{t("fields.comment")}</label>
          <textarea {...getTextareaProps(fields.comment)} rows={3} />
        </div>
        <button type="submit" className="btn btn-primary" disabled={navigation.state === "submitting"}>
          {t("manual.submit")}
        </button>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
