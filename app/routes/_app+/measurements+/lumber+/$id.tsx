import { json, type LoaderFunctionArgs, type SerializeFrom } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { LumberPhoto } from "~/components/lumber/lumber-photo";
import { MeasurementDetailFrame } from "~/components/measurements/detail-frame";
import { MeasurementTrust } from "~/components/measurements/trust-panels";
import { convertVolume, formatDateTime, formatVolume } from "~/domain";
import { intlLocale } from "~/i18n";
import { loadMeasurementTrust } from "~/services/measurement-trust.server";
import { parseId } from "~/utils/api.server";
import { requireAppUser } from "~/utils/auth.server";
import { measurementTypeName } from "~/utils/lookup-name";
import { formatPlankLength, plankUnitOf } from "~/utils/plank-length";
import { formatsFor } from "~/utils/use-format";
import { loadLumberDetail } from "./__lumber-detail.server";

// One lumber measurement, read-only: the package end photo with its planks, the product, the
// plank count and volume, device, time, comment and custom fields. Planks are edited in the
// editor (/measurements/lumber/{id}/edit), which needs JavaScript and says so without it.

export const handle = { i18n: ["timber", "lookups", "trust"] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  const id = parseId(params.id);
  const data = await loadLumberDetail(ctx, id);
  const plankUnit = plankUnitOf(ctx.user.lumber_plank_unit);
  return json({
    ...data,
    trust: await loadMeasurementTrust(ctx, "lumber", id, new URL(request.url)),
    unit: ctx.user.volume_unit,
    precision: ctx.user.rounding_precision,
    locale: ctx.user.locale,
    timeZone: ctx.user.time_zone,
    plankUnit,
  });
}

/** The detail's data as the browser gets it (dates as strings); the editor screen loads the same. */
export type LumberDetailData = SerializeFrom<typeof loader>;

export default function LumberMeasurementDetail() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("timber");
  const m = data.measurement;
  const locale = intlLocale(data.locale);
  const fmtVolume = (v: number) =>
    formatVolume(data.unit === "m^3" ? v : convertVolume(v, "m^3", data.unit), {
      precision: data.precision,
      unit: data.unit,
      locale,
    });
  const fmtPlank = (mm: number) => formatPlankLength(mm, data.plankUnit, locale);
  const product = data.product;
  const photo = data.photo;

  return (
    <MeasurementDetailFrame
      className="lumber-detail"
      title={t("lumber.title", { id: m.id })}
      subtitle={`${data.storage?.name ?? ""} · ${formatDateTime(m.taken_at, data.timeZone)}`}
      editorNeedsJs={t("lumber.editorNeedsJs")}
      locked={data.locked}
      editable={data.editable}
      actions={
        <>
          <Link className="btn" to="/measurements/lumber">
            {t("lumber.back")}
          </Link>
          <Link
            className={data.locked || !data.editable ? "btn" : "btn btn-primary"}
            to={`/measurements/lumber/${m.id}/edit`}
            data-testid="open-editor"
          >
            {data.locked || !data.editable ? t("editor.viewOnPhoto") : t("lumber.openEditor")}
          </Link>
        </>
      }
    >
      {product ? null : (
        <div className="alert alert-warning" role="note" data-testid="no-product">
          {t("lumber.noProduct")}
        </div>
      )}

      <div className="detail-grid">
        <div className="detail-photo">
          <LumberPhoto
            src={photo?.url ?? null}
            width={photo?.width ?? null}
            height={photo?.height ?? null}
            planks={data.planks}
            alt={t("lumber.photoAlt", { id: m.id })}
          />
          <dl className="detail-totals">
            <div>
              <dt>{t("lumber.fields.planks")}</dt>
              <dd data-testid="detail-planks">{m.plank_count}</dd>
            </div>
            <div>
              <dt>{t("table.volume")}</dt>
              <dd data-testid="detail-volume">{fmtVolume(m.volume)}</dd>
            </div>
            <div>
              <dt>{t("lumber.fields.plankLength")}</dt>
              <dd data-testid="detail-plank-length">{product ? fmtPlank(product.plank_length) : "-"}</dd>
            </div>
          </dl>
        </div>

        <div className="detail-forms">
          <section className="card">
            <h2 className="card-title">{t("detail.info")}</h2>
            <dl className="info-list">
              <dt>{t("lumber.fields.product")}</dt>
              <dd data-testid="detail-product">{product?.name ?? "-"}</dd>
              <dt>{t("lumber.fields.plankSize")}</dt>
              <dd>
                {product
                  ? [product.plank_length, product.plank_width, product.plank_height].map(fmtPlank).join(" × ")
                  : "-"}
              </dd>
              <dt>{t("fields.type")}</dt>
              <dd>{measurementTypeName(t, m.measurement_type_id)}</dd>
              <dt>{t("fields.storage")}</dt>
              <dd>{data.storage?.name ?? <span className="text-warning">{m.storage_id}</span>}</dd>
              <dt>{t("fields.device")}</dt>
              <dd data-testid="detail-device">
                {m.device_id ? (data.device?.name ?? <span className="text-warning">{m.device_id}</span>) : "-"}
              </dd>
              <dt>{t("fields.takenAt")}</dt>
              <dd data-testid="detail-taken-at">{formatDateTime(m.taken_at, data.timeZone)}</dd>
              <dt>{t("fields.createdAt")}</dt>
              <dd>{formatDateTime(m.created_at, data.timeZone)}</dd>
              <dt>{t("fields.photoFile")}</dt>
              <dd>{photo?.fileName ?? "NO_PHOTO_ERROR"}</dd>
              <dt>{t("fields.comment")}</dt>
              <dd data-testid="detail-comment">{m.comment || "-"}</dd>
            </dl>
          </section>
          {data.customFields.length ? (
            <section className="card">
              <h2 className="card-title">{t("detail.customFields")}</h2>
              <dl className="info-list" data-testid="custom-fields">
                {data.customFields.map((f) => (
                  <div key={f.key} style={{ display: "contents" }}>
                    <dt>{f.name}</dt>
                    <dd>{typeof f.value === "boolean" ? t(f.value ? "yes" : "no") : String(f.value)}</dd>
                  </div>
                ))}
              </dl>
            </section>
          ) : null}
        </div>
      </div>
      <MeasurementTrust
        trust={data.trust}
        f={formatsFor({ locale: data.locale, timeZone: data.timeZone, precision: data.precision, unit: data.unit })}
      />
    </MeasurementDetailFrame>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
