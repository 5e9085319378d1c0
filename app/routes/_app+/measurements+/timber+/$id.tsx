import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ExportButton } from "~/components/exports/export-button";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { MeasurementDetailFrame } from "~/components/measurements/detail-frame";
import { MeasurementTrust } from "~/components/measurements/trust-panels";
import { PublicLinkDialog } from "~/components/public-links/public-link-dialog";
import { MeasurementPhoto } from "~/components/timber/measurement-photo";
import { MeasurementTables, Metrology } from "~/components/timber/measurement-tables";
import { Field } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select-field";
import { formatVolume, roundHalfUp } from "~/domain";
import { loadMeasurementTrust } from "~/services/measurement-trust.server";
import { parseId } from "~/utils/api.server";
import { requireAppUser } from "~/utils/auth.server";
import { formulaName, measurementTypeName } from "~/utils/lookup-name";
import { publicLinkForScreen } from "~/utils/public-link-form.server";
import { MEASUREMENT_DETAIL_FORMS, type MeasurementDetailForm } from "~/utils/schemas/timber";
import { formatsFor } from "~/utils/use-format";
import { detailAction, loadMeasurementDetail } from "./__timber-detail.server";
import type { ReactNode } from "react";
import type { z } from "zod";

// One timber measurement: photo with its logs, details, metadata, location, custom fields,
// logs sheet and tables. Opened from the dashboard (/measurements/timber/{id}) or a map marker
// (/measurement/{id}). Each section is its own form (intent), working without JavaScript.

export const handle = { i18n: ["timber", "lookups", "exports", "public", "trust"] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  const id = parseId(params.id);
  const url = new URL(request.url);
  const [data, publicLink, trust] = await Promise.all([
    loadMeasurementDetail(ctx, id),
    publicLinkForScreen(ctx, "measurement", id, url.origin),
    // The History panel and the photo's fingerprint with their verify actions (decision 024).
    loadMeasurementTrust(ctx, "timber", id, url),
  ]);
  return json({
    ...data,
    trust,
    publicLink,
    unit: ctx.user.volume_unit,
    precision: ctx.user.rounding_precision,
    locale: ctx.user.locale,
    timeZone: ctx.user.time_zone,
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireAppUser(request);
  return detailAction(request, ctx, parseId(params.id));
}

type ActionData = { intent: string; result: SubmissionResult<string[]> };

export default function MeasurementDetail() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const { t } = useTranslation(["timber", "lookups", "exports"]);
  const location = useLocation();
  const navigation = useNavigation();
  const m = data.measurement;
  const cf = Object.fromEntries(
    data.lookups.customFields.map((f) => {
      const v = m.custom_fields?.[f.key];
      return [f.key, v === undefined || v === null ? "" : String(v)];
    }),
  );
  const readOnly = data.locked || !data.editable;
  const f = formatsFor({ locale: data.locale, timeZone: data.timeZone, precision: data.precision, unit: data.unit });
  const fmtVolume = (v: number) => f.volume(v);
  // A manual measurement is a stated volume: no photo, logs, formula or detection to act on.
  const manual = m.type === "manual";
  const end = new URLSearchParams(location.search).get("end");
  const base = location.pathname.startsWith("/measurement/") ? "/measurement" : "/measurements/timber";
  const cfErrors = actionData?.intent === "custom_fields" ? (actionData.result.error ?? {}) : {};
  const busy = navigation.state === "submitting";
  const missingRequired = data.lookups.customFields.filter(
    (f) => f.required && (m.custom_fields?.[f.key] === undefined || m.custom_fields?.[f.key] === null),
  );

  return (
    <MeasurementDetailFrame
      title={t("measurement", { id: m.id })}
      subtitle={`${data.storage?.name ?? ""} · ${f.dateTime(m.taken_at)}`}
      editorNeedsJs={t("editor.needsJavaScript")}
      locked={data.locked}
      editable={data.editable}
      actions={
        <>
          {m.photo ? (
            <Link
              className={readOnly ? "btn" : "btn btn-primary"}
              to={`/measurements/timber/${m.id}/edit`}
              data-testid="open-editor"
            >
              {t(readOnly ? "editor.viewOnPhoto" : "editor.openEditor")}
            </Link>
          ) : null}
          <PublicLinkDialog link={data.publicLink} kind="measurement" />
          <ExportButton
            kind="pdf"
            reportType="measurement_pdf"
            measurementId={m.id}
            label={t("exports:button.measurementPdf")}
          />
          {manual ? null : (
            <ExportButton
              kind="excel"
              reportType="log_by_log_excel"
              measurementId={m.id}
              label={t("exports:button.logByLogExcel")}
            />
          )}
          <Link className="btn" to="/measurements/timber">
            {t("detail.back")}
          </Link>
          <Link
            className="btn"
            to={data.nav.previousId ? `${base}/${data.nav.previousId}` : `?end=first`}
            data-testid="previous"
          >
            {t("detail.previous")}
          </Link>
          <Link className="btn" to={data.nav.nextId ? `${base}/${data.nav.nextId}` : `?end=last`} data-testid="next">
            {t("detail.next")}
          </Link>
        </>
      }
    >
      {end ? (
        <div className="alert alert-info" role="alert" data-testid="end-alert">
          {t(end === "first" ? "detail.atFirst" : "detail.atLast")}
        </div>
      ) : null}
      {m.poor_detection && !manual ? (
        <div className="alert alert-warning" role="note">
          {t("detail.poorDetection")}
        </div>
      ) : null}

      <div className="detail-grid">
        <div className="detail-photo">
          <MeasurementPhoto
            manual={manual}
            src={m.photo}
            width={m.photo_width}
            height={m.photo_height}
            logs={data.logs}
            references={data.references}
            alt={t("photoAlt", { id: m.id })}
          />
          <dl className="detail-totals">
            <div>
              <dt>{t("table.volume")}</dt>
              <dd data-testid="detail-volume">{fmtVolume(m.volume)}</dd>
            </div>
            <div>
              <dt>{t("table.logs")}</dt>
              <dd data-testid="detail-logs">{f.count(m.logs_count)}</dd>
            </div>
            <div>
              <dt>{t("detail.initialVolume")}</dt>
              <dd>{fmtVolume(m.initial_volume ?? 0)}</dd>
            </div>
            <div>
              <dt>{t("detail.averageDiameter")}</dt>
              <dd data-testid="detail-average-diameter">
                {data.summary.logCount ? f.diameter(data.summary.averageDiameterCm) : "-"}
              </dd>
            </div>
          </dl>
        </div>

        {/* Keyed by the measurement: the next one shows its own values. */}
        <div className="detail-forms" key={m.id}>
          <Section
            title={t("detail.details")}
            intent="details"
            readOnly={readOnly}
            busy={busy}
            defaultValue={{
              measurement_type_id: m.measurement_type_id,
              wood_type_id: m.wood_type_id,
              wood_quality_id: m.wood_quality_id,
              wood_characteristic_id: m.assortment_id,
              log_length: m.log_length,
              volume_formula: m.volume_formula,
            }}
          >
            {(fields) => (
              <>
                <Select
                  field={fields.measurement_type_id}
                  label={t("fields.type")}
                  options={[0, 1, 2, 3].map((id) => ({ id, name: measurementTypeName(t, id) }))}
                />
                <Select
                  field={fields.wood_type_id}
                  label={t("fields.woodType")}
                  empty
                  options={data.lookups.woodTypes}
                />
                <Select
                  field={fields.wood_quality_id}
                  label={t("fields.woodQuality")}
                  empty
                  options={data.lookups.woodQualities}
                />
                <Select
                  field={fields.wood_characteristic_id}
                  label={t("fields.assortment")}
                  empty
                  options={data.lookups.assortments}
                />
                {manual ? null : (
                  <>
                    <Input field={fields.log_length} label={t("fields.logLength")} type="number" step="0.01" />
                    <Select
                      field={fields.volume_formula}
                      label={t("fields.formula")}
                      options={data.lookups.formulas.map((key) => ({ id: key, name: formulaName(t, key) }))}
                    />
                  </>
                )}
              </>
            )}
          </Section>

          <Section
            title={t("detail.metadata")}
            intent="metadata"
            readOnly={readOnly}
            busy={busy}
            defaultValue={{
              shipment_number: m.shipment_number,
              weight: m.weight,
              weight_density: m.weight_density,
              coefficient: m.coefficient,
              comment: m.comment,
            }}
          >
            {(fields) => (
              <>
                <Input field={fields.shipment_number} label={t("fields.shipmentNumber")} />
                <Input field={fields.weight} label={t("fields.weight")} type="number" step="any" />
                <Input field={fields.weight_density} label={t("fields.weightDensity")} type="number" step="any" />
                {m.measurement_area ? (
                  <Input
                    field={fields.coefficient}
                    label={t("fields.coefficient")}
                    type="number"
                    step="0.0001"
                    disabled={m.logs_count > 0}
                    hint={m.logs_count > 0 ? t("fields.coefficientMeasured") : undefined}
                  />
                ) : null}
                <div className="field">
                  <label htmlFor="in-comment">{t("fields.comment")}</label>
                  <textarea {...getTextareaProps(fields.comment)} id="in-comment" rows={3} />
                  <FieldErrors field={fields.comment} />
                </div>
              </>
            )}
          </Section>

          <Section
            title={t("detail.location")}
            intent="location"
            readOnly={readOnly}
            busy={busy}
            defaultValue={{
              storage_id: m.storage_id,
              latitude: m.latitude === null ? null : roundHalfUp(m.latitude, 6),
              longitude: m.longitude === null ? null : roundHalfUp(m.longitude, 6),
            }}
          >
            {(fields) => (
              <>
                <Select field={fields.storage_id} label={t("fields.storage")} options={data.storages} />
                <Input field={fields.latitude} label={t("fields.latitude")} type="number" step="0.000001" />
                <Input field={fields.longitude} label={t("fields.longitude")} type="number" step="0.000001" />
              </>
            )}
          </Section>

          {data.lookups.customFields.length ? (
            <Section
              title={t("detail.customFields")}
              intent="custom_fields"
              readOnly={readOnly}
              busy={busy}
              testId="custom-fields-form"
              defaultValue={{ cf }}
            >
              {(fields) => {
                const values = fields.cf.getFieldset();
                return (
                  <>
                    {Object.keys(cfErrors).some((k) => k.startsWith("cf.")) || missingRequired.length ? (
                      <div className="alert alert-warning" role="alert" data-testid="missing-required">
                        {t("detail.missingRequired", {
                          names: data.lookups.customFields
                            .filter((f) => cfErrors[`cf.${f.key}`] || missingRequired.includes(f))
                            .map((f) => f.name)
                            .join(", "),
                        })}
                      </div>
                    ) : null}
                    {data.lookups.customFields.map((f) => {
                      const field = values[f.key];
                      const label = f.name + (f.required ? " *" : "");
                      if (f.data_type === "boolean")
                        return (
                          <Select
                            key={f.id}
                            field={field}
                            label={label}
                            empty
                            options={[
                              { id: "true", name: t("yes") },
                              { id: "false", name: t("no") },
                            ]}
                          />
                        );
                      if (f.values.length)
                        return (
                          <Select
                            key={f.id}
                            field={field}
                            label={label}
                            empty
                            options={f.values.map((v) => ({ id: v, name: v }))}
                          />
                        );
                      return (
                        <Input
                          key={f.id}
                          field={field}
                          label={label}
                          type={
                            f.data_type === "integer" || f.data_type === "decimal"
                              ? "number"
                              : f.data_type === "date"
                                ? "date"
                                : "text"
                          }
                          step={f.data_type === "decimal" ? "any" : undefined}
                        />
                      );
                    })}
                  </>
                );
              }}
            </Section>
          ) : null}

          {manual ? null : (
            <section className="card">
              <h2 className="card-title">{t("detail.review")}</h2>
              <Form method="post" className="inline-form">
                <input type="hidden" name="intent" value="poor_detection" />
                <input type="hidden" name="poor_detection" value={m.poor_detection ? "false" : "true"} />
                <span>{t(m.poor_detection ? "detail.poorDetectionOn" : "detail.poorDetectionOff")}</span>
                {readOnly ? null : (
                  <button type="submit" className="btn btn-small" disabled={busy} data-testid="toggle-poor-detection">
                    {t(m.poor_detection ? "detail.clearPoorDetection" : "detail.markPoorDetection")}
                  </button>
                )}
              </Form>
            </section>
          )}
          {manual ? null : <Metrology metrology={m.metrology} />}
          <section className="card">
            <h2 className="card-title">{t("detail.info")}</h2>
            <dl className="info-list">
              <dt>{t("fields.device")}</dt>
              <dd>
                {m.device_id
                  ? (data.lookups.devices.find((d) => d.id === m.device_id)?.name ?? (
                      <span className="text-warning">{m.device_id}</span>
                    ))
                  : "-"}
              </dd>
              <dt>{t("fields.takenAt")}</dt>
              <dd>{f.dateTime(m.taken_at)}</dd>
              <dt>{t("fields.measuredAt")}</dt>
              <dd>{f.dateTime(m.measured_at)}</dd>
              <dt>{t("fields.createdAt")}</dt>
              <dd>{f.dateTime(m.created_at)}</dd>
              {manual ? null : (
                <>
                  <dt>{t("fields.photoFile")}</dt>
                  <dd>{m.photo_file_name ?? t("detail.noPhoto")}</dd>
                </>
              )}
            </dl>
          </section>
        </div>
      </div>
      {manual ? null : (
        <MeasurementTables
          summary={data.summary}
          lookups={data.lookups}
          fmtVolume={(v) => formatVolume(v, { precision: data.precision, locale: f.locale })}
        />
      )}
      <MeasurementTrust trust={data.trust} f={f} />
    </MeasurementDetailFrame>
  );
}

type DetailFields<F extends MeasurementDetailForm> = ReturnType<
  typeof useForm<
    z.input<(typeof MEASUREMENT_DETAIL_FORMS)[F]>,
    z.output<(typeof MEASUREMENT_DETAIL_FORMS)[F]>,
    string[]
  >
>[1];

/** One section of the page: its own form (intent), on conform with its part of the PATCH schema. */
function Section<F extends MeasurementDetailForm>({
  title,
  intent,
  readOnly,
  busy,
  defaultValue,
  children,
  testId,
}: {
  title: string;
  intent: F;
  readOnly: boolean;
  busy: boolean;
  defaultValue: Record<string, unknown>;
  children: (fields: DetailFields<F>) => ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation("timber");
  const actionData = useActionData<ActionData>();
  const schema = MEASUREMENT_DETAIL_FORMS[intent];
  const [form, fields] = useForm({
    id: `detail-${intent}`,
    lastResult: actionData?.intent === intent ? actionData.result : undefined,
    defaultValue: defaultValue as never,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  return (
    <section className="card">
      <h2 className="card-title">{title}</h2>
      <Form method="post" data-testid={testId ?? `form-${intent}`} {...getFormProps(form)}>
        <input type="hidden" name="intent" value={intent} />
        {form.errors?.length ? (
          <div className="alert alert-danger" role="alert">
            {form.errors.map((e) => t(e)).join(" ")}
          </div>
        ) : null}
        <fieldset disabled={readOnly} className="form-grid">
          {children(fields as unknown as DetailFields<F>)}
        </fieldset>
        {readOnly ? null : (
          <button type="submit" className="btn btn-primary" disabled={busy} data-testid={`save-${intent}`}>
            {t("detail.save")}
          </button>
        )}
      </Form>
    </section>
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a field of any section form
type AnyField = FieldMetadata<any, any, string[]>;

/** Conform's props without its aria wiring: Field and SelectField wire their own error list. */
function unwired<P extends { id?: string; "aria-invalid"?: unknown; "aria-describedby"?: unknown }>(
  props: P,
  name: string,
) {
  const { "aria-invalid": _i, "aria-describedby": _d, ...rest } = props;
  return { ...rest, id: `in-${name}` };
}

function FieldErrors({ field }: { field: AnyField }) {
  const { t } = useTranslation("timber");
  return field.errors?.length ? (
    <ul className="field-errors" id={`in-${field.name}-error`}>
      {field.errors.map((e) => (
        <li key={e}>{t(e)}</li>
      ))}
    </ul>
  ) : null;
}

function Input({
  field,
  label,
  hint,
  type = "text",
  ...rest
}: {
  field: AnyField;
  label: string;
  hint?: string;
  type?: "text" | "number" | "date";
} & Omit<React.InputHTMLAttributes<HTMLInputElement>, "value" | "type">) {
  const { t } = useTranslation("timber");
  return (
    <Field
      label={label}
      hint={hint}
      errors={field.errors?.map((e) => t(e))}
      inputProps={{ ...unwired(getInputProps(field, { type }), field.name), ...rest }}
    />
  );
}

function Select({
  field,
  label,
  options,
  empty,
}: {
  field: AnyField;
  label: string;
  options: Array<{ id: number | string; name: string }>;
  empty?: boolean;
}) {
  const { t } = useTranslation("timber");
  return (
    <SelectField
      label={label}
      selectProps={unwired(getSelectProps(field), field.name)}
      placeholder={empty ? t("none") : false}
      options={options.map((o) => [String(o.id), o.name])}
      errors={field.errors?.map((e) => t(e))}
    />
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
