import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { getStorage } from "~/models/storage.server";
import { listTimberLookups } from "~/models/timber-lookups.server";
import { canEdit, createManualMeasurement, ForbiddenError, TimberValidationError } from "~/models/timber.server";
import { fieldErrors } from "~/utils/api.server";
import { requireUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { ManualMeasurementSchema } from "~/utils/schemas/timber";
import { dateToZonedLocal, zonedLocalToDate } from "~/utils/timber-dates";
import { redirectWithToast } from "~/utils/toast.server";

// A manual measurement into a storage (from the storage row's menu): a stated volume in m³,
// not dated before the storage's last confirmed inventory. POST /manual_measurements's form.

export const handle = { i18n: ["timber"] };

async function storageFor(request: Request) {
  const ctx = await requireUser(request);
  const id = Number(new URL(request.url).searchParams.get("storage_id"));
  const storage = Number.isInteger(id) && id > 0 ? await getStorage(db(), ctx, id) : undefined;
  if (!storage) throw json({ error: "not_found" }, { status: 404 });
  if (!canEdit(ctx, storage)) throw json({ error: "forbidden" }, { status: 403 });
  return { ctx, storage };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { ctx, storage } = await storageFor(request);
  const lookups = await listTimberLookups(db(), ctx);
  return json({
    storage: { id: storage.id, name: storage.name },
    minTakenAt: storage.last_inventory_confirmed_at ? dateToZonedLocal(storage.last_inventory_confirmed_at, ctx.user.time_zone) : null,
    now: dateToZonedLocal(new Date(), ctx.user.time_zone),
    assortments: lookups.assortments.filter((a) => !a.archived).map((a) => ({ id: a.id, name: a.name })),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const { ctx, storage } = await storageFor(request);
  const form = await request.formData();
  const takenAt = zonedLocalToDate(String(form.get("taken_at") ?? ""), ctx.user.time_zone);
  const volume = String(form.get("volume") ?? "").replace(",", ".");
  const input = {
    manual_measurement: {
      taken_at: takenAt ? takenAt.toISOString() : String(form.get("taken_at") ?? ""),
      measurement_type_id: form.get("measurement_type_id") === "" || form.get("measurement_type_id") === null ? undefined : Number(form.get("measurement_type_id")),
      volume: volume === "" ? undefined : Number.isFinite(Number(volume)) ? Number(volume) : volume,
      wood_characteristic_id: form.get("wood_characteristic_id") ? Number(form.get("wood_characteristic_id")) : null,
      storage_id: storage.id,
      comment: String(form.get("comment") ?? "") || null,
    },
  };
  const parsed = ManualMeasurementSchema.safeParse(input);
  if (!parsed.success) return json({ errors: fieldErrors(parsed.error) }, { status: 422 });
  try {
    await createManualMeasurement(db(), ctx, parsed.data.manual_measurement);
  } catch (error) {
    if (error instanceof TimberValidationError) return json({ errors: error.errors }, { status: 422 });
    if (error instanceof ForbiddenError) throw json({ error: "forbidden" }, { status: 403 });
    throw error;
  }
  return redirectWithToast(`/measurements/timber?open=${storage.id}`, { type: "success", key: "timber:manual.created" });
}

export default function ManualMeasurement() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<{ errors: Record<string, string[]> }>();
  const navigation = useNavigation();
  const { t } = useTranslation("timber");
  const err = (name: string) => {
    const list = actionData?.errors[`manual_measurement.${name}`];
    return list?.length ? (
      <ul className="field-errors" id={`${name}-error`}>
        {list.map((e) => (
          <li key={e}>{t(e)}</li>
        ))}
      </ul>
    ) : null;
  };
  const invalid = (name: string) => (actionData?.errors[`manual_measurement.${name}`] ? { "aria-invalid": true, "aria-describedby": `${name}-error` } : {});
  return (
    <div className="page narrow-page">
      <div className="page-header">
        <h1 className="page-title">{t("manual.title", { storage: data.storage.name })}</h1>
        <Link className="btn" to="/measurements/timber">
          {t("detail.back")}
        </Link>
      </div>
      <Form method="post" className="card form-grid" data-testid="manual-form">
        <div className="field">
          <label htmlFor="taken_at">{t("manual.takenAt")}</label>
          <input id="taken_at" name="taken_at" type="datetime-local" required defaultValue={data.now} min={data.minTakenAt ?? undefined} {...invalid("taken_at")} />
          {data.minTakenAt ? <div className="field-hint">{t("manual.minHint", { date: data.minTakenAt.replace("T", " ") })}</div> : null}
          {err("taken_at")}
        </div>
        <div className="field">
          <label htmlFor="measurement_type_id">{t("fields.type")}</label>
          <select id="measurement_type_id" name="measurement_type_id" required defaultValue="" {...invalid("measurement_type_id")}>
            <option value="" disabled>
              {t("manual.chooseType")}
            </option>
            {[0, 1, 2, 3].map((id) => (
              <option key={id} value={id}>
                {t(`types.${id}`)}
              </option>
            ))}
          </select>
          {err("measurement_type_id")}
        </div>
        <div className="field">
          <label htmlFor="volume">{t("manual.volume")}</label>
          <input id="volume" name="volume" type="number" step="any" min="0" required inputMode="decimal" {...invalid("volume")} />
          {err("volume")}
        </div>
        <div className="field">
          <label htmlFor="wood_characteristic_id">{t("fields.assortment")}</label>
          <select id="wood_characteristic_id" name="wood_characteristic_id" defaultValue="">
            <option value="">{t("none")}</option>
            {data.assortments.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
          {err("wood_characteristic_id")}
        </div>
        <div className="field">
          <label htmlFor="comment">{t("fields.comment")}</label>
          <textarea id="comment" name="comment" rows={3} maxLength={5000} />
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
