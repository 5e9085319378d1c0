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
import { redirectWithToast } from "~/utils/toast.server";

// The dashboard's form posts (bulk move and delete, storage delete, public link): plain HTML
// forms with an intent, answered by a redirect back to the same filtered view with a toast.

export async function handleDashboardAction(request: Request, ctx: AuthContext) {
  const form = await request.formData();
  const back = new URL(request.url);
  // Back to the same filtered view (the form posted to the index route, "?index" is Remix's).
  back.searchParams.delete("index");
  const to = back.pathname + back.search;
  const ids = form
    .getAll("measurement_ids")
    .map((v) => Number(v))
    .filter((n) => Number.isInteger(n) && n > 0);
  const storageId = Number(form.get("storage_id"));
  const intent = form.get("intent");
  // The row menu's "Create public link" (the storage page also rotates and stops it).
  if (isPublicLinkIntent(intent)) return publicLinkAction(ctx, "storage", storageId, intent, to);
  try {
    // The row menu's "Generate report" / "Add to report" and the bulk bar's "Add to report".
    if (isReportIntent(intent)) return await reportDashboardAction(ctx, intent, form, { ids, storageId, to });
    switch (intent) {
      case "move": {
        const target = Number(form.get("target_storage_id"));
        if (!ids.length) return redirectWithToast(to, { type: "warning", key: "timber:bulk.nothingSelected" });
        if (!target) return redirectWithToast(to, { type: "warning", key: "timber:bulk.chooseTarget" });
        await moveMeasurements(
          db(),
          ctx,
          ids.map((id) => ({ measurement_id: id, storage_id: target })),
        );
        return redirectWithToast(to, { type: "success", key: "timber:bulk.moved", values: { count: ids.length } });
      }
      case "delete": {
        if (!ids.length) return redirectWithToast(to, { type: "warning", key: "timber:bulk.nothingSelected" });
        await deleteMeasurements(db(), ctx, ids);
        return redirectWithToast(to, { type: "success", key: "timber:bulk.deleted", values: { count: ids.length } });
      }
      case "mixed-stack-close_up":
      case "mixed-stack-far_away": {
        // The bulk bar's "attach to a mixed stack report" (feature mixed_stack_reports).
        if (!ctx.features.includes("mixed_stack_reports")) throw new ForbiddenError();
        if (!ids.length) return redirectWithToast(to, { type: "warning", key: "timber:bulk.nothingSelected" });
        const reportId = Number(form.get("mixed_stack_report_id"));
        if (!Number.isInteger(reportId) || reportId <= 0)
          return redirectWithToast(to, { type: "warning", key: "mixed-stack:errors.chooseReport" });
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
        const ok = await deleteStorage(db(), ctx, storageId);
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
