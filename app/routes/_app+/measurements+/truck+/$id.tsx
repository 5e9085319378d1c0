import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import leafletCss from "leaflet/dist/leaflet.css";
import { useTranslation } from "react-i18next";
import { ExportButton } from "~/components/exports/export-button";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { MeasurementDetailFrame } from "~/components/measurements/detail-frame";
import { MeasurementTrust } from "~/components/measurements/trust-panels";
import { RouteMap } from "~/components/trucks/route-map";
import { Field } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select-field";
import { loadMeasurementTrust } from "~/services/measurement-trust.server";
import { parseId } from "~/utils/api.server";
import { requireAppUser } from "~/utils/auth.server";
import { formulaName, measurementTypeName } from "~/utils/lookup-name";
import { LOAD_LIMIT, TruckLoadsFormSchema, type TruckLoadsForm } from "~/utils/schemas/truck";
import { formatsFor } from "~/utils/use-format";
import { handleTruckDetailAction, loadTruckDetail } from "./__truck-detail.server";
import type { z } from "zod";

// One truck measurement: its details, the loads editor (each load's height, width, log length,
// coefficient and bed; add, change, remove; measurement type, weight, weight density), the map of
// its routes, the thumbnail, the read-only location (5 decimals), metadata and custom fields.
// The photo editor (references and volume formula) is its own page, /measurements/truck/{id}/edit.
// The loads editor is on conform (one schema with the PATCH): it works without JavaScript,
// errors beside their fields, typed values kept.

export const handle = { i18n: ["trucks", "timber", "lookups", "exports", "trust"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: leafletCss }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  const id = parseId(params.id);
  const data = await loadTruckDetail(ctx, id);
  return json({
    ...data,
    trust: await loadMeasurementTrust(ctx, "truck", id, new URL(request.url)),
    fmt: {
      locale: ctx.user.locale,
      timeZone: ctx.user.time_zone,
      precision: ctx.user.rounding_precision,
      unit: ctx.user.volume_unit,
    },
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireAppUser(request);
  return handleTruckDetailAction(request, ctx, parseId(params.id));
}

const MEASUREMENT_TYPES = [0, 1, 2, 3];

export default function TruckMeasurementDetail() {
  const data = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const { t } = useTranslation(["trucks", "timber", "lookups"]);
  const f = formatsFor(data.fmt);
  const m = data.measurement;
  const canEdit = data.editable && !data.locked;
  const saving = navigation.state === "submitting";

  return (
    <MeasurementDetailFrame
      className="truck-detail"
      title={t("detail.title", { id: m.id })}
      subtitle={`${data.storage?.name ?? ""} · ${f.dateTime(m.taken_at)}`}
      locked={data.locked}
      editable={data.editable}
      actions={
        <>
          {data.photo ? (
            <Link
              className={canEdit ? "btn btn-primary" : "btn"}
              to={`/measurements/truck/${m.id}/edit`}
              data-testid="open-editor"
            >
              {t(canEdit ? "timber:editor.openEditor" : "timber:editor.viewOnPhoto")}
            </Link>
          ) : null}
          <ExportButton
            kind="pdf"
            reportType="truck_measurement_pdf"
            measurementId={m.id}
            label={t("exports:button.measurementPdf")}
          />
          <Link className="btn" to="/measurements/truck">
            {t("detail.back")}
          </Link>
        </>
      }
    >
      <div className="detail-grid">
        <section className="card" aria-label={t("timber:detail.details")}>
          <h2 className="card-title">{t("timber:detail.details")}</h2>
          <dl className="info-list" data-testid="truck-details">
            <dt>{t("detail.plate")}</dt>
            <dd>{m.license_plate ?? "–"}</dd>
            <dt>{t("detail.shipment")}</dt>
            <dd>{m.shipment_number ?? "–"}</dd>
            <dt>{t("detail.type")}</dt>
            <dd>{measurementTypeName(t, m.measurement_type_id)}</dd>
            <dt>{t("detail.loads")}</dt>
            <dd>{f.count(m.load_count)}</dd>
            <dt>{t("detail.stackedVolume")}</dt>
            <dd data-testid="truck-stacked-volume">{f.volume(m.stacked_volume)}</dd>
            <dt>{t("detail.volume")}</dt>
            <dd data-testid="truck-volume">{f.volume(m.volume)}</dd>
            <dt>{t("timber:fields.formula")}</dt>
            <dd data-testid="truck-formula">{m.volume_formula ? formulaName(t, m.volume_formula) : "–"}</dd>
            <dt>{t("detail.weight")}</dt>
            <dd>{m.weight === null ? "–" : f.quantity(m.weight, 0, "kg")}</dd>
            <dt>{t("detail.weightDensity")}</dt>
            <dd>{m.weight_density === null ? "–" : f.quantity(m.weight_density, 3, "m³/t")}</dd>
          </dl>
        </section>
        <section className="card" aria-label={t("detail.photo")}>
          <h2 className="card-title">{t("detail.photo")}</h2>
          {data.photo ? (
            <img className="detail-photo" src={data.photo} alt={t("detail.photoAlt", { id: m.id })} loading="lazy" />
          ) : (
            <p className="muted">{t("detail.noPhoto")}</p>
          )}
        </section>
      </div>

      <LoadsEditor
        loads={data.loads}
        measurement={m}
        canEdit={canEdit}
        saving={saving}
        formatVolume={(v) => f.volume(v)}
        coefficientExample={f.number(0.68, 2)}
      />

      <RouteMap routes={data.routes} formatDateTime={(v) => f.dateTime(v)} />

      <div className="detail-grid">
        <section className="card" aria-label={t("timber:detail.location")}>
          <h2 className="card-title">{t("timber:detail.location")}</h2>
          {m.latitude !== null && m.longitude !== null ? (
            <p data-testid="truck-location">
              {f.coordinate(m.latitude, 5)}, {f.coordinate(m.longitude, 5)}
            </p>
          ) : (
            <p className="muted">{t("detail.noCoordinates")}</p>
          )}
        </section>
        <section className="card" aria-label={t("timber:detail.metadata")}>
          <h2 className="card-title">{t("timber:detail.metadata")}</h2>
          <dl className="info-list">
            <dt>{t("detail.measuredAt")}</dt>
            <dd>{m.measured_at ? f.dateTime(m.measured_at) : "–"}</dd>
            <dt>{t("detail.createdAt")}</dt>
            <dd>{f.dateTime(m.created_at)}</dd>
            <dt>{t("detail.updatedAt")}</dt>
            <dd>{f.dateTime(m.updated_at)}</dd>
            <dt>{t("detail.device")}</dt>
            <dd>{data.device?.name ?? "–"}</dd>
          </dl>
        </section>
        {data.customFields.length ? (
          <section className="card" aria-label={t("timber:detail.customFields")}>
            <h2 className="card-title">{t("timber:detail.customFields")}</h2>
            <dl className="info-list" data-testid="custom-fields">
              {data.customFields.map((c) => [
                <dt key={`k${c.key}`}>{c.name}</dt>,
                <dd key={`v${c.key}`}>{c.value}</dd>,
              ])}
            </dl>
          </section>
        ) : null}
      </div>
      <MeasurementTrust trust={data.trust} f={f} />
    </MeasurementDetailFrame>
  );
}

type LoadsFields = ReturnType<typeof useForm<z.input<typeof TruckLoadsFormSchema>, TruckLoadsForm, string[]>>[1];
type Load = ReturnType<typeof useLoaderData<typeof loader>>["loads"][number];
type Measurement = ReturnType<typeof useLoaderData<typeof loader>>["measurement"];

/**
 * The loads editor (decision 010): one conform form on the PATCH's field rules, a row per load
 * and an empty "new load" row; without JavaScript it posts and comes back with the errors beside
 * the fields and the typed values kept.
 */
function LoadsEditor({
  loads,
  measurement: m,
  canEdit,
  saving,
  formatVolume,
  coefficientExample,
}: {
  loads: Load[];
  measurement: Measurement;
  canEdit: boolean;
  saving: boolean;
  formatVolume: (v: number) => string;
  coefficientExample: string;
}) {
  const { t } = useTranslation(["trucks", "timber", "lookups"]);
  const actionData = useActionData<typeof action>();
  const rows = canEdit && loads.length < LOAD_LIMIT ? [...loads, null] : loads;
  const [form, fields] = useForm<z.input<typeof TruckLoadsFormSchema>, TruckLoadsForm, string[]>({
    id: "truck-loads",
    lastResult: actionData?.intent === "save-loads" ? actionData.result : undefined,
    defaultValue: {
      loads: rows.map((l) =>
        l
          ? {
              id: String(l.id),
              height: String(l.height),
              load_width: String(l.load_width),
              log_length: String(l.log_length),
              coefficient: String(l.coefficient),
              load_bed_name: l.load_bed_name ?? "",
            }
          : {},
      ) as never,
      measurement_type_id: String(m.measurement_type_id) as never,
      weight: (m.weight === null ? "" : String(m.weight)) as never,
      weight_density: (m.weight_density === null ? "" : String(m.weight_density)) as never,
    },
    constraint: getZodConstraint(TruckLoadsFormSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => {
      for (const [name, v] of [...formData.entries()])
        if (typeof v === "string" && /\.(height|load_width|log_length|coefficient)$|^weight(_density)?$/.test(name))
          formData.set(name, v.trim().replace(",", "."));
      return parseWithZod(formData, { schema: TruckLoadsFormSchema });
    },
  });
  const list = (fields as LoadsFields).loads.getFieldList();
  const errs = (errors: string[] | undefined, testId: string) =>
    errors?.length ? (
      <ul className="field-errors" data-testid={testId}>
        {errors.map((e) => (
          <li key={e}>{t(e)}</li>
        ))}
      </ul>
    ) : null;
  return (
    <section className="card" aria-label={t("loads.title")}>
      <h2 className="card-title">{t("loads.title")}</h2>
      <Form method="post" replace data-testid="loads-form" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="save-loads" />
        {errs(fields.loads.errors, "error-loads")}
        <div className="table-wrap">
          <table className="table loads-table" data-testid="loads-table">
            <thead>
              <tr>
                <th scope="col">{t("loads.bed")}</th>
                <th scope="col">{t("loads.height")}</th>
                <th scope="col">{t("loads.width")}</th>
                <th scope="col">{t("loads.length")}</th>
                <th scope="col">{t("loads.coefficient")}</th>
                <th scope="col" className="num">
                  {t("loads.volume")}
                </th>
                {canEdit ? <th scope="col">{t("loads.remove")}</th> : null}
              </tr>
            </thead>
            <tbody>
              {list.map((item, i) => {
                const l = rows[i] ?? null;
                const row = item.getFieldset();
                const input = (k: "height" | "load_width" | "log_length" | "coefficient", label: string) => (
                  <td>
                    <input
                      {...getInputProps(row[k], { type: "text" })}
                      aria-label={`${label} ${i + 1}`}
                      inputMode="decimal"
                      readOnly={!canEdit}
                      size={6}
                      data-testid={`load-${i}-${k}`}
                    />
                    {errs(row[k].errors, `error-loads.${i}.${k}`)}
                  </td>
                );
                return (
                  <tr key={item.key} data-testid={l ? `load-row-${i}` : "load-row-new"}>
                    <td>
                      {l ? <input {...getInputProps(row.id, { type: "hidden" })} /> : null}
                      <input
                        {...getInputProps(row.load_bed_name, { type: "text" })}
                        aria-label={`${t("loads.bed")} ${i + 1}`}
                        placeholder={l ? undefined : t("loads.newLoad")}
                        readOnly={!canEdit}
                        size={10}
                      />
                      {errs(row.load_bed_name.errors, `error-loads.${i}.load_bed_name`)}
                      {errs(row.id.errors, `error-loads.${i}.id`)}
                    </td>
                    {input("height", t("loads.height"))}
                    {input("load_width", t("loads.width"))}
                    {input("log_length", t("loads.length"))}
                    {input("coefficient", t("loads.coefficient"))}
                    <td className="num" data-testid={l ? `load-${i}-volume` : undefined}>
                      {l ? formatVolume(l.volume) : ""}
                    </td>
                    {canEdit ? (
                      <td>
                        {l ? (
                          <input
                            {...getInputProps(row.remove, { type: "checkbox" })}
                            aria-label={`${t("loads.remove")} ${i + 1}`}
                          />
                        ) : null}
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        <p className="muted">{t("loads.units", { coefficient: coefficientExample })}</p>
        <fieldset disabled={!canEdit} className="form-row">
          <SelectField
            label={t("detail.type")}
            selectProps={getSelectProps(fields.measurement_type_id)}
            options={MEASUREMENT_TYPES.map((id) => [id, measurementTypeName(t, id)])}
            errors={fields.measurement_type_id.errors?.map((e) => t(e))}
            placeholder={false}
          />
          <Field
            label={`${t("detail.weight")} (kg)`}
            inputProps={{ ...getInputProps(fields.weight, { type: "text" }), inputMode: "decimal" }}
            errors={fields.weight.errors?.map((e) => t(e))}
          />
          <Field
            label={`${t("detail.weightDensity")} (m³/t)`}
            inputProps={{ ...getInputProps(fields.weight_density, { type: "text" }), inputMode: "decimal" }}
            errors={fields.weight_density.errors?.map((e) => t(e))}
          />
        </fieldset>
        {canEdit ? (
          <button type="submit" className="btn btn-primary" disabled={saving} data-testid="save-loads">
            {saving ? t("loads.saving") : t("loads.save")}
          </button>
        ) : null}
      </Form>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
