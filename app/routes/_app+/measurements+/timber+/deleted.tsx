import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { EmptyState } from "~/components/ui/empty-state";
import { formatNumber, formatDateTime } from "~/domain";
import { intlLocale } from "~/i18n";
import { deletedLumberMeasurements } from "~/models/lumber-dashboard.server";
import { isMeasurementKind } from "~/models/measurement-kind.server";
import { restoreMeasurement } from "~/models/measurement-restore.server";
import { deletedMeasurements } from "~/models/timber-dashboard.server";
import { deletedTruckDiameterMeasurements, deletedTruckMeasurements } from "~/models/truck-export.server";
import { requireAppUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { errorResponse, notFound, unknownIntent, ValidationError } from "~/utils/errors";
import { parseFilterDate } from "~/utils/schemas/timber";
import { redirectWithToast } from "~/utils/toast.server";

// Deleted timber measurements grouped by storage, filtered by creation date (POST
// /measurements/deleted's data); totals to 3 decimals, as the spec fixes for this page. Deleted
// lumber measurements follow in their own table (#lumber), then deleted truck measurements
// (#trucks) and truck-diameter measurements (#truck-diameter), with the same date filter. Each row
// can be restored (the action below).

export const handle = { i18n: ["timber", "lumber", "trucks", "trust"] };

/**
 * Restore (docs/decisions/024-trust.md): {intent: "restore", kind, id} puts a deleted measurement
 * back into its storage, written to its history; a storage gone or an inventory confirmed since
 * the deletion is refused with a sentence above the tables (422), and nothing changes.
 */
export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireAppUser(request);
  const form = await request.formData();
  if (form.get("intent") !== "restore") unknownIntent();
  const kind = String(form.get("kind") ?? "timber");
  const id = Number(form.get("id"));
  if (!isMeasurementKind(kind) || !Number.isSafeInteger(id) || id <= 0) notFound();
  let restored: { storage_id: number };
  try {
    restored = await restoreMeasurement(db(), ctx, kind, id);
  } catch (error) {
    if (error instanceof ValidationError)
      return json({ id, kind, error: error.errors.measurement_id?.[0] ?? "trust:restore.failed" }, { status: 422 });
    throw errorResponse(error) ?? error;
  }
  // A truck-diameter measurement has no detail of its own outside the cmpc screens: back to the
  // truck dashboard, its storage opened under "only truck-diameter".
  const detail =
    kind === "timber"
      ? `/measurements/timber/${id}`
      : kind === "truck_diameter"
        ? `/measurements/truck?truck_diameter_measurements_only=true&open=${restored.storage_id}`
        : `/measurements/${kind}/${id}`;
  return redirectWithToast(detail, { type: "success", key: "trust:restore.done", values: { id } });
}

function RestoreButton({ kind, id }: { kind: "timber" | "lumber" | "truck" | "truck_diameter"; id: number }) {
  const { t } = useTranslation("trust");
  return (
    <Form method="post" className="inline-form">
      <input type="hidden" name="intent" value="restore" />
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="id" value={id} />
      <button type="submit" className="btn btn-sm" data-testid={`restore-${kind}-${id}`}>
        {t("restore.button")}
      </button>
    </Form>
  );
}

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  const url = new URL(request.url);
  const fromRaw = url.searchParams.get("created_at_from") ?? "";
  const untilRaw = url.searchParams.get("created_at_until") ?? "";
  const from = fromRaw ? parseFilterDate(fromRaw, false, ctx.user.time_zone) : null;
  const until = untilRaw ? parseFilterDate(untilRaw, true, ctx.user.time_zone) : null;
  const errors: Record<string, string> = {};
  if (fromRaw && !from) errors.created_at_from = "timber:errors.date";
  if (untilRaw && !until) errors.created_at_until = "timber:errors.date";
  const [result, lumber, trucks, truckDiameter] = await Promise.all([
    deletedMeasurements(db(), ctx, { from, until }),
    deletedLumberMeasurements(db(), ctx, { from, until }),
    deletedTruckMeasurements(db(), ctx, { from, until }),
    deletedTruckDiameterMeasurements(db(), ctx, { from, until }),
  ]);
  return json({
    ...result,
    lumber,
    trucks,
    truckDiameter,
    values: { created_at_from: fromRaw, created_at_until: untilRaw },
    errors,
    locale: ctx.user.locale,
    timeZone: ctx.user.time_zone,
  });
}

export default function DeletedMeasurements() {
  const data = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const { t } = useTranslation(["timber", "lumber", "trucks", "trust"]);
  const locale = intlLocale(data.locale);
  const vol = (v: number) => formatNumber(v, 3, locale);
  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title">{t("deleted.title")}</h1>
        <Link className="btn" to="/measurements/timber">
          {t("deleted.back")}
        </Link>
      </div>
      <Form method="get" className="inline-form deleted-filter">
        {(["created_at_from", "created_at_until"] as const).map((name) => (
          <div className="field" key={name}>
            <label htmlFor={name}>{t(`deleted.${name}`)}</label>
            <input
              id={name}
              name={name}
              type="date"
              defaultValue={data.values[name]}
              aria-invalid={data.errors[name] ? true : undefined}
            />
            {data.errors[name] ? (
              <ul className="field-errors">
                <li>{t(data.errors[name])}</li>
              </ul>
            ) : null}
          </div>
        ))}
        <button type="submit" className="btn btn-primary">
          {t("filters.apply")}
        </button>
      </Form>
      {refused ? (
        <div className="alert alert-error" role="alert" data-testid="restore-refused">
          {t("trust:restore.refused", { id: refused.id })} {t(refused.error)}
        </div>
      ) : null}
      {data.truncated ? (
        <div className="alert alert-warning" role="note">
          {t("deleted.truncated")}
        </div>
      ) : null}
      {data.storages.length === 0 ? (
        <EmptyState title={t("deleted.emptyTitle")} text={t("deleted.emptyText")} />
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="deleted-table">
            <thead>
              <tr>
                <th>{t("table.measurement")}</th>
                <th>{t("fields.takenAt")}</th>
                <th>{t("deleted.deletedAt")}</th>
                <th className="num">{t("table.logs")}</th>
                <th className="num">{t("deleted.volume")}</th>
                <th>
                  <span className="sr-only">{t("trust:restore.button")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.storages.map((s) => (
                <Fragment key={s.id}>
                  <tr className="group-row" data-testid={`deleted-storage-${s.id}`}>
                    <th colSpan={3}>{s.name}</th>
                    <th className="num">{s.logs_count}</th>
                    <th className="num">{vol(s.volume)}</th>
                    <th />
                  </tr>
                  {s.measurements.map((m) => (
                    <tr key={m.id} data-testid={`deleted-${m.id}`}>
                      <td>{t("measurement", { id: m.id })}</td>
                      <td>{formatDateTime(m.taken_at, data.timeZone)}</td>
                      <td>{formatDateTime(m.deleted_at, data.timeZone)}</td>
                      <td className="num">{m.logs_count}</td>
                      <td className="num">{vol(m.volume)}</td>
                      <td>
                        <RestoreButton kind="timber" id={m.id} />
                      </td>
                    </tr>
                  ))}
                </Fragment>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th colSpan={3}>{t("deleted.total")}</th>
                <th className="num">{data.total_logs}</th>
                <th className="num" data-testid="deleted-total">
                  {vol(data.total_volume)}
                </th>
                <th />
              </tr>
            </tfoot>
          </table>
        </div>
      )}
      <section id="lumber" className="deleted-lumber" aria-labelledby="deleted-lumber-title">
        <h2 className="section-title" id="deleted-lumber-title">
          {t("lumber:deletedSection.title")}
        </h2>
        {data.lumber.truncated ? (
          <div className="alert alert-warning" role="note">
            {t("deleted.truncated")}
          </div>
        ) : null}
        {data.lumber.storages.length === 0 ? (
          <p className="muted" data-testid="deleted-lumber-empty">
            {t("lumber:deletedSection.empty")}
          </p>
        ) : (
          <div className="table-wrap">
            <table className="table" data-testid="deleted-lumber-table">
              <thead>
                <tr>
                  <th>{t("table.measurement")}</th>
                  <th>{t("fields.takenAt")}</th>
                  <th>{t("deleted.deletedAt")}</th>
                  <th className="num">{t("lumber:table.planks")}</th>
                  <th className="num">{t("deleted.volume")}</th>
                  <th>
                    <span className="sr-only">{t("trust:restore.button")}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.lumber.storages.map((s) => (
                  <Fragment key={s.id}>
                    <tr className="group-row" data-testid={`deleted-lumber-storage-${s.id}`}>
                      <th colSpan={3}>{s.name}</th>
                      <th className="num">{s.planks_count}</th>
                      <th className="num">{vol(s.volume)}</th>
                      <th />
                    </tr>
                    {s.measurements.map((m) => (
                      <tr key={m.id} data-testid={`deleted-lumber-${m.id}`}>
                        <td>{t("lumber:measurement", { id: m.id })}</td>
                        <td>{formatDateTime(m.taken_at, data.timeZone)}</td>
                        <td>{formatDateTime(m.deleted_at, data.timeZone)}</td>
                        <td className="num">{m.plank_count}</td>
                        <td className="num">{vol(m.volume)}</td>
                        <td>
                          <RestoreButton kind="lumber" id={m.id} />
                        </td>
                      </tr>
                    ))}
                  </Fragment>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th colSpan={3}>{t("deleted.total")}</th>
                  <th className="num">{data.lumber.total_planks}</th>
                  <th className="num" data-testid="deleted-lumber-total">
                    {vol(data.lumber.total_volume)}
                  </th>
                  <th />
                </tr>
              </tfoot>
            </table>
          </div>
        )}
      </section>
      <section id="trucks" className="deleted-lumber" aria-labelledby="deleted-trucks-title">
        <h2 className="section-title" id="deleted-trucks-title">
          {t("trucks:deletedSection.title")}
        </h2>
        {data.trucks.truncated ? (
          <div className="alert alert-warning" role="note">
            {t("deleted.truncated")}
          </div>
        ) : null}
        {data.trucks.storages.length === 0 ? (
          <p className="muted" data-testid="deleted-trucks-empty">
            {t("trucks:deletedSection.empty")}
          </p>
        ) : (
          <div className="table-wrap">
            <table className="table" data-testid="deleted-trucks-table">
              <thead>
                <tr>
                  <th>{t("table.measurement")}</th>
                  <th>{t("trucks:list.plate")}</th>
                  <th>{t("fields.takenAt")}</th>
                  <th>{t("deleted.deletedAt")}</th>
                  <th className="num">{t("trucks:table.loads")}</th>
                  <th className="num">{t("deleted.volume")}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {data.trucks.storages.map((s) => (
                  <Fragment key={s.id}>
                    <tr className="group-row" data-testid={`deleted-trucks-storage-${s.id}`}>
                      <th colSpan={4}>{s.name}</th>
                      <th className="num">{s.load_count}</th>
                      <th className="num">{vol(s.volume)}</th>
                      <th />
                    </tr>
                    {s.measurements.map((m) => (
                      <tr key={m.id} data-testid={`deleted-truck-${m.id}`}>
                        <td>{t("trucks:measurement", { id: m.id })}</td>
                        <td>{m.license_plate ?? "–"}</td>
                        <td>{formatDateTime(m.taken_at, data.timeZone)}</td>
                        <td>{formatDateTime(m.deleted_at, data.timeZone)}</td>
                        <td className="num">{m.load_count}</td>
                        <td className="num">{vol(m.volume)}</td>
                        <td>
                          <RestoreButton kind="truck" id={m.id} />
                        </td>
                      </tr>
                    ))}
                  </Fragment>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th colSpan={4}>{t("deleted.total")}</th>
                  <th className="num">{data.trucks.total_loads}</th>
                  <th className="num" data-testid="deleted-trucks-total">
                    {vol(data.trucks.total_volume)}
                  </th>
                  <th />
                </tr>
              </tfoot>
            </table>
          </div>
        )}
      </section>
      <section id="truck-diameter" className="deleted-lumber" aria-labelledby="deleted-truck-diameter-title">
        <h2 className="section-title" id="deleted-truck-diameter-title">
          {t("trucks:deletedDiameter.title")}
        </h2>
        {data.truckDiameter.truncated ? (
          <div className="alert alert-warning" role="note">
            {t("deleted.truncated")}
          </div>
        ) : null}
        {data.truckDiameter.storages.length === 0 ? (
          <p className="muted" data-testid="deleted-truck-diameter-empty">
            {t("trucks:deletedDiameter.empty")}
          </p>
        ) : (
          <div className="table-wrap">
            <table className="table" data-testid="deleted-truck-diameter-table">
              <thead>
                <tr>
                  <th>{t("table.measurement")}</th>
                  <th>{t("trucks:diameter.trailerPlate")}</th>
                  <th>{t("fields.takenAt")}</th>
                  <th>{t("deleted.deletedAt")}</th>
                  <th className="num">{t("trucks:table.logs")}</th>
                  <th className="num">{t("deleted.volume")}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {data.truckDiameter.storages.map((s) => (
                  <Fragment key={s.id}>
                    <tr className="group-row" data-testid={`deleted-truck-diameter-storage-${s.id}`}>
                      <th colSpan={4}>{s.name}</th>
                      <th className="num">{s.logs_count}</th>
                      <th className="num">{vol(s.volume)}</th>
                      <th />
                    </tr>
                    {s.measurements.map((m) => (
                      <tr key={m.id} data-testid={`deleted-truck-diameter-${m.id}`}>
                        <td>{t("trucks:diameter.measurement", { id: m.id })}</td>
                        <td>{m.trailer_license_plate ?? "–"}</td>
                        <td>{formatDateTime(m.taken_at, data.timeZone)}</td>
                        <td>{formatDateTime(m.deleted_at, data.timeZone)}</td>
                        <td className="num">{m.logs_count}</td>
                        <td className="num">{vol(m.volume)}</td>
                        <td>
                          <RestoreButton kind="truck_diameter" id={m.id} />
                        </td>
                      </tr>
                    ))}
                  </Fragment>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th colSpan={4}>{t("deleted.total")}</th>
                  <th className="num">{data.truckDiameter.total_logs}</th>
                  <th className="num" data-testid="deleted-truck-diameter-total">
                    {vol(data.truckDiameter.total_volume)}
                  </th>
                  <th />
                </tr>
              </tfoot>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
