import { type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
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
import { i18nServer } from "~/utils/i18n.server";
import { isPublicLinkIntent, publicLinkAction } from "~/utils/public-link-form.server";
import {
  DETAIL_DECIMAL_FIELDS,
  detailFormPatch,
  MEASUREMENT_DETAIL_FORMS,
  MeasurementPatchSchema,
  type MeasurementDetailForm,
  type MeasurementPatch,
} from "~/utils/schemas/timber";
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

/** The model's field errors are keyed by the payload path; the custom fields form posts `cf.<key>`. */
const formPath = (path: string) => path.replace(/^custom_fields\./, "cf.");
const toFormErrors = (errors: Record<string, string[]>) =>
  Object.fromEntries(Object.entries(errors).map(([k, v]) => [formPath(k), v]));

export async function detailAction(request: Request, ctx: AuthContext, id: number) {
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const m = await getMeasurementRow(db(), ctx, id);
  if (!m) notFound();
  // The public-link dialog's forms (create, rotate, stop).
  if (isPublicLinkIntent(intent))
    return publicLinkAction(ctx, "measurement", id, intent, new URL(request.url).pathname);
  let patch: MeasurementPatch;
  let reply: (options?: {
    formErrors?: string[];
    fieldErrors?: Record<string, string[]>;
  }) => SubmissionResult<string[]>;
  if (intent === "poor_detection") {
    patch = { poor_detection: form.get("poor_detection") === "true" };
    reply = (options) => ({ status: "error", error: { "": options?.formErrors ?? [], ...options?.fieldErrors } });
  } else if (Object.hasOwn(MEASUREMENT_DETAIL_FORMS, intent)) {
    const section = intent as MeasurementDetailForm;
    // A decimal comma is what many users type; the number inputs send it as written without JavaScript.
    for (const name of DETAIL_DECIMAL_FIELDS) {
      const v = form.get(name);
      if (typeof v === "string") form.set(name, v.trim().replace(",", "."));
    }
    const submission = parseWithZod(form, { schema: MEASUREMENT_DETAIL_FORMS[section] });
    if (submission.status !== "success") return json({ intent, result: submission.reply() }, { status: 422 });
    const lookups = section === "custom_fields" ? await listTimberLookups(db(), ctx) : null;
    const keys = lookups?.customFields.filter((f) => !f.archived).map((f) => f.key) ?? [];
    patch = detailFormPatch(section, submission.value, keys);
    // An emptied coefficient clears it (a measured one is disabled, so not posted at all).
    if (section === "metadata" && form.get("coefficient") === "") patch.coefficient = null;
    reply = (options) => submission.reply(options);
  } else unknownIntent();
  const refuse = (options: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }, status: number) =>
    json({ intent, result: reply(options) }, { status });
  const parsed = MeasurementPatchSchema.safeParse(patch);
  if (!parsed.success) return refuse({ fieldErrors: toFormErrors(fieldErrors(parsed.error as z.ZodError)) }, 422);
  try {
    await patchMeasurement(db(), ctx, id, parsed.data);
  } catch (error) {
    if (error instanceof TimberValidationError) return refuse({ fieldErrors: toFormErrors(error.errors) }, 422);
    if (error instanceof LockedError) return refuse({ formErrors: ["timber:detail.locked"] }, 409);
    if (error instanceof ForbiddenError) return refuse({ formErrors: ["timber:detail.readOnly"] }, 403);
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
  return redirectWithToast(new URL(request.url).pathname, { type: "success", key: "timber:detail.saved" });
}
