import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import leafletCss from "leaflet/dist/leaflet.css";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { MeasurementDetailFrame } from "~/components/measurements/detail-frame";
import { RouteMap } from "~/components/trucks/route-map";
import { parseId } from "~/utils/api.server";
import { requireAppUser } from "~/utils/auth.server";
import { measurementTypeName } from "~/utils/lookup-name";
import { LOAD_LIMIT } from "~/utils/schemas/truck";
import { formatsFor } from "~/utils/use-format";
import { handleTruckDetailAction, loadTruckDetail } from "./__truck-detail.server";

// One truck measurement: its details, the loads editor (each load's height, width, log length,
// coefficient and bed; add, change, remove; measurement type, weight, weight density), the map of
// its routes, the thumbnail, the read-only location (5 decimals), metadata and custom fields.
// The loads editor is a plain form: it works without JavaScript, errors beside their fields.

export const handle = { i18n: ["trucks", "timber", "lookups"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: leafletCss }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  const data = await loadTruckDetail(ctx, parseId(params.id));
  return json({
    ...data,
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
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t } = useTranslation(["trucks", "timber", "lookups"]);
  const f = formatsFor(data.fmt);
  const m = data.measurement;
  const errors: Record<string, string[]> = result?.errors ?? {};
  const posted: Record<string, string> | null = result?.values ?? null;
  const value = (name: string, fallback: string | number | null | undefined) =>
    posted ? (posted[name] ?? "") : fallback === null || fallback === undefined ? "" : String(fallback);
  const err = (name: string) =>
    errors[name]?.length ? (
      <span className="field-error" data-testid={`error-${name}`}>
        {t(errors[name][0])}
      </span>
    ) : null;
  const canEdit = data.editable && !data.locked;
  const saving = navigation.state === "submitting";
  const newIndex = data.loads.length;
  const number = (v: number, d: number) => f.number(v, d);

  return (
    <MeasurementDetailFrame
      className="truck-detail"
      title={t("detail.title", { id: m.id })}
      subtitle={`${data.storage?.name ?? ""} · ${f.dateTime(m.taken_at)}`}
      locked={data.locked}
      editable={data.editable}
      actions={
        <Link className="btn" to="/measurements/truck">
          {t("detail.back")}
        </Link>
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

      <section className="card" aria-label={t("loads.title")}>
        <h2 className="card-title">{t("loads.title")}</h2>
        <Form method="post" replace data-testid="loads-form" noValidate>
          <input type="hidden" name="intent" value="save-loads" />
          <input type="hidden" name="load_count" value={newIndex} />
          {errors.loads ? <p className="field-error">{t(errors.loads[0])}</p> : null}
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
                {[...data.loads, null].map((l, i) => {
                  if (l === null && (!canEdit || data.loads.length >= LOAD_LIMIT)) return null;
                  const p = (k: string) => `loads[${i}].${k}`;
                  const e = (k: string) => err(`loads.${i}.${k}`);
                  const input = (k: "height" | "load_width" | "log_length" | "coefficient", label: string) => (
                    <td>
                      <input
                        name={p(k)}
                        aria-label={`${label} ${i + 1}`}
                        inputMode="decimal"
                        defaultValue={value(p(k), l ? l[k] : null)}
                        readOnly={!canEdit}
                        size={6}
                        data-testid={`load-${i}-${k}`}
                      />
                      {e(k)}
                    </td>
                  );
                  return (
                    <tr key={l ? l.id : "new"} data-testid={l ? `load-row-${i}` : "load-row-new"}>
                      <td>
                        {l ? <input type="hidden" name={p("id")} value={l.id} /> : null}
                        <input
                          name={p("load_bed_name")}
                          aria-label={`${t("loads.bed")} ${i + 1}`}
                          defaultValue={value(p("load_bed_name"), l ? l.load_bed_name : null)}
                          placeholder={l ? undefined : t("loads.newLoad")}
                          maxLength={64}
                          readOnly={!canEdit}
                          size={10}
                        />
                        {e("load_bed_name")}
                        {e("id")}
                      </td>
                      {input("height", t("loads.height"))}
                      {input("load_width", t("loads.width"))}
                      {input("log_length", t("loads.length"))}
                      {input("coefficient", t("loads.coefficient"))}
                      <td className="num" data-testid={l ? `load-${i}-volume` : undefined}>
                        {l ? f.volume(l.volume) : ""}
                      </td>
                      {canEdit ? (
                        <td>
                          {l ? (
                            <input
                              type="checkbox"
                              name={p("remove")}
                              aria-label={`${t("loads.remove")} ${i + 1}`}
                              defaultChecked={posted ? posted[p("remove")] === "on" : false}
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
          <p className="muted">{t("loads.units", { coefficient: number(0.68, 2) })}</p>
          <div className="form-row">
            <label className="field">
              <span className="field-label">{t("detail.type")}</span>
              <select
                name="measurement_type_id"
                defaultValue={value("measurement_type_id", m.measurement_type_id)}
                disabled={!canEdit}
              >
                {MEASUREMENT_TYPES.map((id) => (
                  <option key={id} value={id}>
                    {measurementTypeName(t, id)}
                  </option>
                ))}
              </select>
              {err("measurement_type_id")}
            </label>
            <label className="field">
              <span className="field-label">{t("detail.weight")} (kg)</span>
              <input name="weight" inputMode="decimal" defaultValue={value("weight", m.weight)} readOnly={!canEdit} />
              {err("weight")}
            </label>
            <label className="field">
              <span className="field-label">{t("detail.weightDensity")} (m³/t)</span>
              <input
                name="weight_density"
                inputMode="decimal"
                defaultValue={value("weight_density", m.weight_density)}
                readOnly={!canEdit}
              />
              {err("weight_density")}
            </label>
          </div>
          {canEdit ? (
            <button type="submit" className="btn btn-primary" disabled={saving} data-testid="save-loads">
              {saving ? t("loads.saving") : t("loads.save")}
            </button>
          ) : null}
        </Form>
      </section>

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
    </MeasurementDetailFrame>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
