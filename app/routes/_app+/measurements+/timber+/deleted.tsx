import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { DeletedKindSection, DeletedKindTable } from "~/components/measurements/deleted-kind-table";
import { EmptyState } from "~/components/ui/empty-state";
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
      <DeletedKindTable
        kind="timber"
        testId="deleted"
        storages={data.storages}
        totalVolume={data.total_volume}
        truncated={data.truncated}
        empty={<EmptyState title={t("deleted.emptyTitle")} text={t("deleted.emptyText")} />}
        label={(m) => t("measurement", { id: m.id })}
        count={{
          header: t("table.logs"),
          ofStorage: (s) => s.logs_count,
          of: (m) => m.logs_count,
          total: data.total_logs,
        }}
        timeZone={data.timeZone}
        locale={locale}
      />
      <DeletedKindSection id="lumber" title={t("lumber:deletedSection.title")}>
        <DeletedKindTable
          kind="lumber"
          testId="deleted-lumber"
          storages={data.lumber.storages}
          totalVolume={data.lumber.total_volume}
          truncated={data.lumber.truncated}
          empty={t("lumber:deletedSection.empty")}
          label={(m) => t("lumber:measurement", { id: m.id })}
          count={{
            header: t("lumber:table.planks"),
            ofStorage: (s) => s.planks_count,
            of: (m) => m.plank_count,
            total: data.lumber.total_planks,
          }}
          timeZone={data.timeZone}
          locale={locale}
        />
      </DeletedKindSection>
      <DeletedKindSection id="trucks" title={t("trucks:deletedSection.title")}>
        <DeletedKindTable
          kind="truck"
          testId="deleted-trucks"
          rowTestId="deleted-truck"
          storages={data.trucks.storages}
          totalVolume={data.trucks.total_volume}
          truncated={data.trucks.truncated}
          empty={t("trucks:deletedSection.empty")}
          label={(m) => t("trucks:measurement", { id: m.id })}
          plate={{ header: t("trucks:list.plate"), of: (m) => m.license_plate }}
          count={{
            header: t("trucks:table.loads"),
            ofStorage: (s) => s.load_count,
            of: (m) => m.load_count,
            total: data.trucks.total_loads,
          }}
          timeZone={data.timeZone}
          locale={locale}
        />
      </DeletedKindSection>
      <DeletedKindSection id="truck-diameter" title={t("trucks:deletedDiameter.title")}>
        <DeletedKindTable
          kind="truck_diameter"
          testId="deleted-truck-diameter"
          storages={data.truckDiameter.storages}
          totalVolume={data.truckDiameter.total_volume}
          truncated={data.truckDiameter.truncated}
          empty={t("trucks:deletedDiameter.empty")}
          label={(m) => t("trucks:diameter.measurement", { id: m.id })}
          plate={{ header: t("trucks:diameter.trailerPlate"), of: (m) => m.trailer_license_plate }}
          count={{
            header: t("trucks:table.logs"),
            ofStorage: (s) => s.logs_count,
            of: (m) => m.logs_count,
            total: data.truckDiameter.total_logs,
          }}
          timeZone={data.timeZone}
          locale={locale}
        />
      </DeletedKindSection>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
