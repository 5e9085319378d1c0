import { json } from "@remix-run/node";
import { listStorages } from "~/models/lookup.server";
import {
  canEdit,
  ForbiddenError,
  LockedError,
  NotFoundError,
  TimberValidationError,
} from "~/models/measurement-kind.server";
import { screenPhotoUrl } from "~/models/measurement-photo.server";
import { getStorage } from "~/models/storage.server";
import { neighbours } from "~/models/timber-dashboard.server";
import { listTimberLookups } from "~/models/timber-lookups.server";
import { timberSummary } from "~/models/timber-summary.server";
import {
  getMeasurementLogs,
  getMeasurementReferences,
  getMeasurementRow,
  patchMeasurement,
  speciesOf,
} from "~/models/timber.server";
import { fieldErrors } from "~/utils/api.server";
import type { AuthContext } from "~/utils/auth-context";
import { db } from "~/utils/db.server";
import { notFound, unknownIntent } from "~/utils/errors";
import { postedValues } from "~/utils/form-values";
import { i18nServer } from "~/utils/i18n.server";
import { isPublicLinkIntent, publicLinkAction } from "~/utils/public-link-form.server";
import { MeasurementPatchSchema } from "~/utils/schemas/timber";
import { redirectWithToast } from "~/utils/toast.server";
import type { z } from "zod";

// The measurement detail screen's data and its form posts (one form per section, each a
// PATCH /measurements/{id} variant through the same schema and model as the API).

export async function loadMeasurementDetail(ctx: AuthContext, id: number) {
  const m = await getMeasurementRow(db(), ctx, id);
  if (!m) notFound();
  const t = await i18nServer.getFixedT(ctx.user.locale, "lookups");
  const [storage, logs, references, lookups, storages, nav] = await Promise.all([
    getStorage(db(), ctx, m.storage_id),
    getMeasurementLogs(db(), ctx, id),
    getMeasurementReferences(db(), ctx, id),
    listTimberLookups(db(), ctx, t),
    listStorages(db(), ctx),
    neighbours(db(), ctx, m),
  ]);
  const summary = timberSummary(m, logs, lookups);
  const editable = storage ? canEdit(ctx, storage) : false;
  return {
    measurement: {
      ...m,
      photo: screenPhotoUrl("timber", m),
    },
    storage: storage ? { id: storage.id, name: storage.name } : null,
    logs: logs.map((l) => ({
      id: l.id,
      x: l.x,
      y: l.y,
      r: l.r,
      d: l.d,
      v: l.v,
      is_deleted: l.is_deleted,
      modified_at: l.modified_at,
      cull_id: l.cull_id,
      assortment_id: l.assortment_id,
    })),
    references,
    summary: {
      unit: summary.unit,
      logCount: summary.logCount,
      averageDiameterCm: summary.averageDiameterCm,
      minDiameterCm: summary.minDiameterCm,
      maxDiameterCm: summary.maxDiameterCm,
      logsSheet: summary.logsSheet,
      byAssortment: summary.byAssortment,
      byCull: summary.byCull,
    },
    lookups: {
      woodTypes: lookups.woodTypes,
      woodQualities: lookups.woodQualities,
      assortments: lookups.assortments.map((a) => ({ id: a.id, name: a.name, archived: a.archived })),
      culls: lookups.culls.map((c) => ({ id: c.id, name: c.reason })),
      formulas: lookups.formulas.map((f) => f.key),
      customFields: lookups.customFields.filter((f) => !f.archived),
      devices: lookups.devices,
    },
    storages: storages.map((s) => ({ id: s.id, name: s.name })),
    nav,
    editable,
    locked: m.inventory_id !== null,
  };
}

/**
 * What the measurement editor needs, and only that (the detail screen's summaries, storages and
 * neighbours are not loaded on the editor's way in).
 */
export async function loadMeasurementForEditor(ctx: AuthContext, id: number) {
  const m = await getMeasurementRow(db(), ctx, id);
  if (!m) notFound();
  const [storage, logs, references, lookups] = await Promise.all([
    getStorage(db(), ctx, m.storage_id),
    getMeasurementLogs(db(), ctx, id),
    getMeasurementReferences(db(), ctx, id),
    listTimberLookups(db(), ctx),
  ]);
  return {
    measurement: {
      id: m.id,
      photo: screenPhotoUrl("timber", m),
      photoWidth: m.photo_width,
      photoHeight: m.photo_height,
      volume: m.volume,
      logsCount: m.logs_count,
      logLength: m.log_length,
      coefficient: m.coefficient,
      formula: m.volume_formula,
      loadLines: m.load_lines,
      area: m.measurement_area,
      species: speciesOf(m.wood_type_id) ?? null,
    },
    logs: logs.map((l) => ({
      id: l.id,
      x: l.x,
      y: l.y,
      r: l.r,
      d: l.d,
      is_deleted: l.is_deleted,
      modified_at: l.modified_at,
      cull_id: l.cull_id,
      assortment_id: l.assortment_id,
    })),
    references: references.map(({ x1, y1, x2, y2, size }) => ({ x1, y1, x2, y2, size })),
    lookups: {
      formulas: lookups.formulas.map((f) => f.key),
      assortments: lookups.assortments.filter((a) => !a.archived).map((a) => ({ id: a.id, name: a.name })),
      culls: lookups.culls.map((c) => ({ id: c.id, name: c.reason })),
    },
    readOnly: m.inventory_id !== null || !(storage && canEdit(ctx, storage)),
    locked: m.inventory_id !== null,
  };
}

export const DETAIL_INTENTS = ["details", "metadata", "location", "custom_fields", "poor_detection"] as const;

const str = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v.trim() : undefined;
};
/** "" to null, a number when it is one, else the text (so the schema names the field). */
const num = (form: FormData, name: string, opts: { nullable?: boolean } = {}) => {
  const v = str(form, name);
  if (v === undefined) return undefined;
  if (v === "") return opts.nullable ? null : undefined;
  const n = Number(v.replace(",", "."));
  return Number.isFinite(n) ? n : v;
};

function patchFromForm(intent: string, form: FormData, customFieldKeys: string[]): Record<string, unknown> | null {
  switch (intent) {
    case "details":
      return {
        measurement_type_id: num(form, "measurement_type_id"),
        wood_type_id: num(form, "wood_type_id", { nullable: true }),
        wood_quality_id: num(form, "wood_quality_id", { nullable: true }),
        wood_characteristic_id: num(form, "wood_characteristic_id", { nullable: true }),
        log_length: num(form, "log_length"),
        volume_formula: str(form, "volume_formula") || undefined,
      };
    case "metadata": {
      const patch: Record<string, unknown> = {
        shipment_number: str(form, "shipment_number") || null,
        weight: num(form, "weight", { nullable: true }),
        weight_density: num(form, "weight_density", { nullable: true }),
        comment: str(form, "comment") || null,
      };
      if (form.has("coefficient")) patch.coefficient = num(form, "coefficient", { nullable: true });
      return patch;
    }
    case "location":
      return {
        storage_id: num(form, "storage_id"),
        latitude: num(form, "latitude", { nullable: true }),
        longitude: num(form, "longitude", { nullable: true }),
      };
    case "custom_fields":
      return {
        custom_fields: Object.fromEntries(
          customFieldKeys.map((k) => {
            const v = form.get(`cf.${k}`);
            return [k, typeof v === "string" && v.trim() !== "" ? v.trim() : null];
          }),
        ),
      };
    case "poor_detection":
      return { poor_detection: str(form, "poor_detection") === "true" };
    default:
      return null;
  }
}

export async function detailAction(request: Request, ctx: AuthContext, id: number) {
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const m = await getMeasurementRow(db(), ctx, id);
  if (!m) notFound();
  // The public-link dialog's forms (create, rotate, stop).
  if (isPublicLinkIntent(intent))
    return publicLinkAction(ctx, "measurement", id, intent, new URL(request.url).pathname);
  const lookups = intent === "custom_fields" ? await listTimberLookups(db(), ctx) : null;
  const raw = patchFromForm(intent, form, lookups?.customFields.filter((f) => !f.archived).map((f) => f.key) ?? []);
  if (!raw) unknownIntent();
  const cleaned = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined));
  // A refused form comes back with what was typed, so the fields show it beside the errors.
  const values = postedValues(form);
  const refuse = (errors: Record<string, string[]>, status: number) => json({ intent, errors, values }, { status });
  const parsed = MeasurementPatchSchema.safeParse(cleaned);
  if (!parsed.success) return refuse(fieldErrors(parsed.error as z.ZodError), 422);
  try {
    await patchMeasurement(db(), ctx, id, parsed.data);
  } catch (error) {
    if (error instanceof TimberValidationError) return refuse(error.errors, 422);
    if (error instanceof LockedError) return refuse({ _: ["timber:detail.locked"] }, 409);
    if (error instanceof ForbiddenError) return refuse({ _: ["timber:detail.readOnly"] }, 403);
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
  return redirectWithToast(new URL(request.url).pathname, { type: "success", key: "timber:detail.saved" });
}
