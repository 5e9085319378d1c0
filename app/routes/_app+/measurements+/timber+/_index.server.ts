import { parseWithZod } from "@conform-to/zod/v4";
import { json } from "@remix-run/node";
import { ForbiddenError, NotFoundError } from "~/models/measurement-kind.server";
import { addMixedStackMeasurements } from "~/models/mixed-stack-report.server";
import { MissingAssortmentError } from "~/models/report.server";
import { DefaultStorageError, deleteStorage } from "~/models/storage.server";
import { deleteMeasurements, moveMeasurements } from "~/models/timber.server";
import type { AuthContext } from "~/utils/auth-context";
import { db } from "~/utils/db.server";
import { ConflictError, unknownIntent, ValidationError } from "~/utils/errors";
import { isPublicLinkIntent, publicLinkAction } from "~/utils/public-link-form.server";
import { isReportIntent, reportDashboardAction } from "~/utils/report-dashboard.server";
import {
  BulkDeleteFormSchema,
  BulkMixedStackFormSchema,
  BulkMoveFormSchema,
  bulkMovePayload,
  MoveStorageSchema,
} from "~/utils/schemas/timber";
import { redirectWithToast } from "~/utils/toast.server";
import type { SubmissionResult } from "@conform-to/react";

// The dashboard's form posts (bulk move and delete, storage delete, public link): plain HTML
// forms with an intent, answered by a redirect back to the same filtered view with a toast; bulk
// input that fails its schema comes back (422) with the errors beside the bar's fields.

/** A refused bulk form: the errors beside the bar's fields, the ticked boxes and choices kept. */
export type BulkRefused = { intent: "bulk"; result: SubmissionResult<string[]> };
const refuse = (submission: { reply: () => SubmissionResult<string[]> }) =>
  json<BulkRefused>({ intent: "bulk", result: submission.reply() }, { status: 422 });

export async function handleDashboardAction(request: Request, ctx: AuthContext) {
  const form = await request.formData();
  const back = new URL(request.url);
  // Back to the same filtered view (the form posted to the index route, "?index" is Remix's).
  back.searchParams.delete("index");
  const to = back.pathname + back.search;
  const intent = form.get("intent");
  // The row menu's "Create public link" (the storage page also rotates and stops it).
  if (isPublicLinkIntent(intent)) return publicLinkAction(ctx, "storage", Number(form.get("storage_id")), intent, to);
  try {
    // The row menu's "Generate report" / "Add to report" and the bulk bar's "Add to report".
    if (isReportIntent(intent)) {
      const ids = form
        .getAll("measurement_ids")
        .map(Number)
        .filter((n) => Number.isInteger(n) && n > 0);
      return await reportDashboardAction(ctx, intent, form, { ids, storageId: Number(form.get("storage_id")), to });
    }
    switch (intent) {
      case "move": {
        const submission = parseWithZod(form, { schema: BulkMoveFormSchema });
        if (submission.status !== "success") return refuse(submission);
        await moveMeasurements(db(), ctx, MoveStorageSchema.parse(bulkMovePayload(submission.value)).move_storage);
        const count = submission.value.measurement_ids.length;
        return redirectWithToast(to, { type: "success", key: "timber:bulk.moved", values: { count } });
      }
      case "delete": {
        const submission = parseWithZod(form, { schema: BulkDeleteFormSchema });
        if (submission.status !== "success") return refuse(submission);
        const ids = submission.value.measurement_ids;
        await deleteMeasurements(db(), ctx, ids);
        return redirectWithToast(to, { type: "success", key: "timber:bulk.deleted", values: { count: ids.length } });
      }
      case "mixed-stack-close_up":
      case "mixed-stack-far_away": {
        // The bulk bar's "attach to a mixed stack report" (feature mixed_stack_reports).
        if (!ctx.features.includes("mixed_stack_reports")) throw new ForbiddenError();
        const submission = parseWithZod(form, { schema: BulkMixedStackFormSchema });
        if (submission.status !== "success") return refuse(submission);
        const { measurement_ids: ids, mixed_stack_report_id: reportId } = submission.value;
        const category = intent === "mixed-stack-close_up" ? "close_up" : "far_away";
        await addMixedStackMeasurements(db(), ctx, reportId, category, ids);
        return redirectWithToast(to, {
          type: "success",
          key: `mixed-stack:toast.attached_${category}`,
          values: { count: ids.length },
        });
      }
      case "delete-storage": {
        if (!ctx.isAdmin) throw new ForbiddenError();
        const ok = await deleteStorage(db(), ctx, Number(form.get("storage_id")));
        if (!ok) throw new NotFoundError();
        back.searchParams.delete("open");
        return redirectWithToast(back.pathname + back.search, { type: "success", key: "timber:storage.deleted" });
      }
      default:
        unknownIntent();
    }
  } catch (error) {
    if (error instanceof DefaultStorageError)
      return redirectWithToast(to, { type: "warning", key: "timber:menu.defaultNoDelete" });
    if (error instanceof MissingAssortmentError)
      return redirectWithToast(to, {
        type: "warning",
        key: "reports:alerts.missingAssortment",
        values: { ids: error.measurementIds.join(", ") },
      });
    if (error instanceof ConflictError)
      return redirectWithToast(to, {
        type: "error",
        key: Object.values(error.errors ?? {})[0]?.[0] ?? "timber:errors.failed",
      });
    if (error instanceof ValidationError) {
      const key = Object.values(error.errors)[0]?.[0] ?? "timber:errors.failed";
      return redirectWithToast(to, { type: "error", key });
    }
    if (error instanceof NotFoundError) return redirectWithToast(to, { type: "error", key: "timber:errors.notFound" });
    if (error instanceof ForbiddenError)
      return redirectWithToast(to, { type: "warning", key: "timber:errors.forbidden" });
    throw error;
  }
}
