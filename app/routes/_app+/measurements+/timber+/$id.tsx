import { type ActionFunctionArgs, json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ExportButton } from "~/components/exports/export-button";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { MeasurementDetailFrame } from "~/components/measurements/detail-frame";
import { PublicLinkDialog } from "~/components/public-links/public-link-dialog";
import { MeasurementPhoto } from "~/components/timber/measurement-photo";
import { MeasurementTables, Metrology } from "~/components/timber/measurement-tables";
import { Field } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select-field";
import { formatVolume, roundHalfUp } from "~/domain";
import { parseId } from "~/utils/api.server";
import { requireAppUser } from "~/utils/auth.server";
import { formulaName, measurementTypeName } from "~/utils/lookup-name";
import { publicLinkForScreen } from "~/utils/public-link-form.server";
import { formatsFor } from "~/utils/use-format";
import { detailAction, loadMeasurementDetail } from "./__timber-detail.server";
import type { ReactNode } from "react";

// One timber measurement: photo with its logs, details, metadata, location, custom fields,
// logs sheet and tables. Opened from the dashboard (/measurements/timber/{id}) or a map marker
// (/measurement/{id}). Each section is its own form (intent), working without JavaScript.

export const handle = { i18n: ["timber", "lookups", "exports", "public"] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  const id = parseId(params.id);
  const [data, publicLink] = await Promise.all([
    loadMeasurementDetail(ctx, id),
    publicLinkForScreen(ctx, "measurement", id, new URL(request.url).origin),
  ]);
  return json({
    ...data,
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

type ActionData = { intent: string; errors: Record<string, string[]>; values?: Record<string, string> };

export default function MeasurementDetail() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const { t } = useTranslation(["timber", "lookups", "exports"]);
  const location = useLocation();
  const navigation = useNavigation();
  const m = data.measurement;
  const readOnly = data.locked || !data.editable;
  const f = formatsFor({ locale: data.locale, timeZone: data.timeZone, precision: data.precision, unit: data.unit });
  const fmtVolume = (v: number) => f.volume(v);
  // A manual measurement is a stated volume: no photo, logs, formula or detection to act on.
  const manual = m.type === "manual";
  const end = new URLSearchParams(location.search).get("end");
  const base = location.pathname.startsWith("/measurement/") ? "/measurement" : "/measurements/timber";
  const errorsOf = (intent: string) => (actionData?.intent === intent ? actionData.errors : {});
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
            errors={errorsOf("details")}
          >
            <Select
              name="measurement_type_id"
              label={t("fields.type")}
              value={m.measurement_type_id}
              options={[0, 1, 2, 3].map((id) => ({ id, name: measurementTypeName(t, id) }))}
              errors={errorsOf("details")}
            />
            <Select
              name="wood_type_id"
              label={t("fields.woodType")}
              value={m.wood_type_id}
              empty
              options={data.lookups.woodTypes}
              errors={errorsOf("details")}
            />
            <Select
              name="wood_quality_id"
              label={t("fields.woodQuality")}
              value={m.wood_quality_id}
              empty
              options={data.lookups.woodQualities}
              errors={errorsOf("details")}
            />
            <Select
              name="wood_characteristic_id"
              label={t("fields.assortment")}
              value={m.assortment_id}
              empty
              options={data.lookups.assortments}
              errors={errorsOf("details")}
            />
            {manual ? null : (
              <>
                <Input
                  name="log_length"
                  label={t("fields.logLength")}
                  value={m.log_length}
                  type="number"
                  step="0.01"
                  errors={errorsOf("details")}
                />
                <Select
                  name="volume_formula"
                  label={t("fields.formula")}
                  value={m.volume_formula}
                  options={data.lookups.formulas.map((key) => ({ id: key, name: formulaName(t, key) }))}
                  errors={errorsOf("details")}
                />
              </>
            )}
          </Section>

          <Section
            title={t("detail.metadata")}
            intent="metadata"
            readOnly={readOnly}
            busy={busy}
            errors={errorsOf("metadata")}
          >
            <Input
              name="shipment_number"
              label={t("fields.shipmentNumber")}
              value={m.shipment_number}
              errors={errorsOf("metadata")}
            />
            <Input
              name="weight"
              label={t("fields.weight")}
              value={m.weight}
              type="number"
              step="any"
              errors={errorsOf("metadata")}
            />
            <Input
              name="weight_density"
              label={t("fields.weightDensity")}
              value={m.weight_density}
              type="number"
              step="any"
              errors={errorsOf("metadata")}
            />
            {m.measurement_area ? (
              <Input
                name="coefficient"
                label={t("fields.coefficient")}
                value={m.coefficient}
                type="number"
                step="0.0001"
                errors={errorsOf("metadata")}
                disabled={m.logs_count > 0}
                hint={m.logs_count > 0 ? t("fields.coefficientMeasured") : undefined}
              />
            ) : null}
            <div className="field">
              <label htmlFor="comment">{t("fields.comment")}</label>
              <textarea
                id="comment"
                name="comment"
                defaultValue={actionData?.values?.comment ?? m.comment ?? ""}
                rows={3}
              />
            </div>
          </Section>

          <Section
            title={t("detail.location")}
            intent="location"
            readOnly={readOnly}
            busy={busy}
            errors={errorsOf("location")}
          >
            <Select
              name="storage_id"
              label={t("fields.storage")}
              value={m.storage_id}
              options={data.storages}
              errors={errorsOf("location")}
            />
            <Input
              name="latitude"
              label={t("fields.latitude")}
              value={m.latitude === null ? null : roundHalfUp(m.latitude, 6)}
              type="number"
              step="0.000001"
              min="-90"
              max="90"
              errors={errorsOf("location")}
            />
            <Input
              name="longitude"
              label={t("fields.longitude")}
              value={m.longitude === null ? null : roundHalfUp(m.longitude, 6)}
              type="number"
              step="0.000001"
              min="-180"
              max="180"
              errors={errorsOf("location")}
            />
          </Section>

          {data.lookups.customFields.length ? (
            <Section
              title={t("detail.customFields")}
              intent="custom_fields"
              readOnly={readOnly}
              busy={busy}
              errors={errorsOf("custom_fields")}
              testId="custom-fields-form"
            >
              {Object.keys(errorsOf("custom_fields")).some((k) => k.startsWith("custom_fields.")) ||
              missingRequired.length ? (
                <div className="alert alert-warning" role="alert" data-testid="missing-required">
                  {t("detail.missingRequired", {
                    names: data.lookups.customFields
                      .filter((f) => errorsOf("custom_fields")[`custom_fields.${f.key}`] || missingRequired.includes(f))
                      .map((f) => f.name)
                      .join(", "),
                  })}
                </div>
              ) : null}
              {data.lookups.customFields.map((f) => {
                const value = m.custom_fields?.[f.key];
                const name = `cf.${f.key}`;
                const errs = errorsOf("custom_fields")[`custom_fields.${f.key}`];
                if (f.data_type === "boolean") {
                  return (
                    <Select
                      key={f.id}
                      name={name}
                      label={f.name + (f.required ? " *" : "")}
                      value={value === undefined || value === null ? "" : String(value)}
                      empty
                      options={[
                        { id: "true", name: t("yes") },
                        { id: "false", name: t("no") },
                      ]}
                      errors={{ [name]: errs ?? [] }}
                    />
                  );
                }
                if (f.values.length) {
                  return (
                    <Select
                      key={f.id}
                      name={name}
                      label={f.name + (f.required ? " *" : "")}
                      value={value === undefined || value === null ? "" : String(value)}
                      empty
                      options={f.values.map((v) => ({ id: v, name: v }))}
                      errors={{ [name]: errs ?? [] }}
                    />
                  );
                }
                return (
                  <Input
                    key={f.id}
                    name={name}
                    label={f.name + (f.required ? " *" : "")}
                    value={value === undefined || value === null ? null : String(value)}
                    type={
                      f.data_type === "integer" || f.data_type === "decimal"
                        ? "number"
                        : f.data_type === "date"
                          ? "date"
                          : "text"
                    }
                    step={f.data_type === "decimal" ? "any" : undefined}
                    errors={{ [name]: errs ?? [] }}
                  />
                );
              })}
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
    </MeasurementDetailFrame>
  );
}

function Section({
  title,
  intent,
  readOnly,
  busy,
  errors,
  children,
  testId,
}: {
  title: string;
  intent: string;
  readOnly: boolean;
  busy: boolean;
  errors: Record<string, string[]>;
  children: ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation("timber");
  return (
    <section className="card">
      <h2 className="card-title">{title}</h2>
      <Form method="post" data-testid={testId ?? `form-${intent}`}>
        <input type="hidden" name="intent" value={intent} />
        {errors._ ? (
          <div className="alert alert-danger" role="alert">
            {errors._.map((e) => t(e)).join(" ")}
          </div>
        ) : null}
        <fieldset disabled={readOnly} className="form-grid">
          {children}
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

/**
 * The value a field shows: what the user just posted when that form was refused (so nothing they
 * typed is lost, with or without JavaScript), else the stored one.
 */
function useShownValue(name: string, stored: string | number | null | undefined) {
  const posted = useActionData<ActionData>()?.values?.[name];
  return posted !== undefined ? posted : stored === null || stored === undefined ? "" : String(stored);
}

function Input({
  name,
  label,
  value,
  errors,
  hint,
  ...rest
}: {
  name: string;
  label: string;
  value: string | number | null | undefined;
  errors: Record<string, string[]>;
  hint?: string;
} & Omit<React.InputHTMLAttributes<HTMLInputElement>, "value">) {
  const { t } = useTranslation("timber");
  const shown = useShownValue(name, value);
  return (
    <Field
      label={label}
      hint={hint}
      errors={errors[name]?.map((e) => t(e))}
      inputProps={{ id: `in-${name}`, name, defaultValue: shown, ...rest }}
    />
  );
}

function Select({
  name,
  label,
  value,
  options,
  errors,
  empty,
}: {
  name: string;
  label: string;
  value: string | number | null | undefined;
  options: Array<{ id: number | string; name: string }>;
  errors: Record<string, string[]>;
  empty?: boolean;
}) {
  const { t } = useTranslation("timber");
  const shown = useShownValue(name, value);
  return (
    <SelectField
      label={label}
      selectProps={{ id: `in-${name}`, name, defaultValue: shown }}
      placeholder={empty ? t("none") : false}
      options={options.map((o) => [String(o.id), o.name])}
      errors={errors[name]?.map((e) => t(e))}
    />
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
