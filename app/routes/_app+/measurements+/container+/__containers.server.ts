import { parseWithZod } from "@conform-to/zod/v4";
import { json } from "@remix-run/node";
import { batchContainerMeasurements } from "~/models/container-measurement.server";
import { createBillOfLading, createContainers, patchBillOfLading, patchContainer } from "~/models/container.server";
import { parseExportRequest } from "~/services/exports/registry.server";
import { EmptySelectionError, requestExport, SelectionNotFoundError } from "~/services/exports.server";
import { addJob } from "~/services/jobs.server";
import type { AuthContext } from "~/utils/auth-context";
import { requireFeature } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { errorResponse, notFound, unknownIntent, ValidationError } from "~/utils/errors";
import {
  BillOfLadingEditFormSchema,
  BillOfLadingFormSchema,
  ContainerBatchSchema,
  ContainerEditFormSchema,
  ContainersAddFormSchema,
  containersFromForm,
} from "~/utils/schemas/containers";
import { redirectWithToast } from "~/utils/toast.server";

// The container mode's form posts (docs/decisions/022-containers.md), one intent each, answered
// as {intent, result} so each conform form takes only its own result: add a bill, edit a bill,
// archive / unarchive (after the confirmation step), rotate a bill's link, add containers, edit a
// container, and the measurement cards' batch actions. They call the same models as the API.
// The cards' "log by log of the selected" is a batch button too (the ticked boxes are this form's),
// asking for container_log_by_log_excel through the export registry as POST /excel_exports does;
// viewers may export (decision 011), so it needs no editing role.

export const CONTAINER_SCREEN_FEATURE = "container_measurements";

function idOf(value: FormDataEntryValue | null) {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) notFound();
  return n;
}

export async function handleContainerAction(request: Request, ctx: AuthContext) {
  requireFeature(ctx, CONTAINER_SCREEN_FEATURE);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const back = new URL(request.url).search;
  const done = (key: string, search = back) =>
    redirectWithToast(`/measurements/container${search}`, { type: "success", key });
  try {
    switch (intent) {
      case "createBill": {
        const submission = parseWithZod(form, { schema: BillOfLadingFormSchema });
        if (submission.status !== "success") return json({ intent, result: submission.reply() }, { status: 422 });
        const id = await createBillOfLading(db(), ctx, submission.value);
        return done("containers:toast.billCreated", `?open=${id}`);
      }
      case "editBill": {
        const id = idOf(form.get("bill_id"));
        const submission = parseWithZod(form, { schema: BillOfLadingEditFormSchema });
        if (submission.status !== "success") return json({ intent, result: submission.reply() }, { status: 422 });
        try {
          await patchBillOfLading(db(), ctx, id, submission.value);
        } catch (error) {
          if (error instanceof ValidationError)
            return json({ intent, result: submission.reply({ fieldErrors: error.errors }) }, { status: 422 });
          throw error;
        }
        return done("containers:toast.billSaved", `?open=${id}`);
      }
      case "archive":
      case "unarchive": {
        const id = idOf(form.get("bill_id"));
        await patchBillOfLading(db(), ctx, id, { archived: intent === "archive" });
        return done(intent === "archive" ? "containers:toast.archived" : "containers:toast.unarchived", "");
      }
      case "rotateToken": {
        const id = idOf(form.get("bill_id"));
        await patchBillOfLading(db(), ctx, id, { token: true });
        return done("containers:toast.tokenRotated", `?open=${id}&edit_bill=${id}`);
      }
      case "addContainers": {
        const submission = parseWithZod(form, { schema: ContainersAddFormSchema });
        if (submission.status !== "success") return json({ intent, result: submission.reply() }, { status: 422 });
        await createContainers(db(), ctx, containersFromForm(submission.value));
        return done("containers:toast.containersAdded", `?open=${submission.value.bill_of_lading_id}`);
      }
      case "editContainer": {
        const id = idOf(form.get("container_id"));
        const submission = parseWithZod(form, { schema: ContainerEditFormSchema });
        if (submission.status !== "success") return json({ intent, result: submission.reply() }, { status: 422 });
        try {
          await patchContainer(db(), ctx, id, submission.value);
        } catch (error) {
          if (error instanceof ValidationError)
            return json({ intent, result: submission.reply({ fieldErrors: error.errors }) }, { status: 422 });
          throw error;
        }
        return done("containers:toast.containerSaved");
      }
      case "batch": {
        const action = String(form.get("batch_action") ?? "");
        const ids = form.getAll("measurement_ids").map(String).join(",");
        if (action === "export") return await exportSelected(ctx, ids, back);
        const body: Record<string, unknown> = { measurement_ids: ids };
        if (action === "assign") body.container_id = String(form.get("target_container_id") ?? "");
        else if (action === "lock") body.locked_at = new Date().toISOString();
        else if (action === "unlock") body.locked_at = null;
        else if (action === "delete") body.delete = true;
        const parsed = ContainerBatchSchema.safeParse(body);
        if (!parsed.success)
          return json({ intent, errors: [...new Set(parsed.error.issues.map((i) => i.message))] }, { status: 422 });
        try {
          await batchContainerMeasurements(db(), ctx, parsed.data);
        } catch (error) {
          if (error instanceof ValidationError)
            return json({ intent, errors: [...new Set(Object.values(error.errors).flat())] }, { status: 422 });
          throw error;
        }
        return done(`containers:toast.batch.${action}`);
      }
      default:
        unknownIntent();
    }
  } catch (error) {
    throw errorResponse(error) ?? error;
  }
}

/** The cards' "log by log of the selected": container_log_by_log_excel of the ticked measurements. */
async function exportSelected(ctx: AuthContext, ids: string, back: string) {
  const intent = "batch";
  if (!ids) return json({ intent, errors: ["containers:errors.nothingSelected"] }, { status: 422 });
  const parsed = parseExportRequest(
    "excel",
    { report_type: "container_log_by_log_excel", measurement_ids: ids },
    ctx.features,
  );
  if (!parsed.ok) {
    if (parsed.refusal.error === "feature_unavailable") requireFeature(ctx, parsed.refusal.feature!);
    return json({ intent, errors: [...new Set(Object.values(parsed.refusal.errors).flat())] }, { status: 422 });
  }
  try {
    await requestExport(db(), ctx, addJob, { type: parsed.type, selection: parsed.selection });
  } catch (error) {
    // Another organisation's measurement is not found, as in the API.
    if (error instanceof SelectionNotFoundError) notFound();
    if (error instanceof EmptySelectionError)
      return json({ intent, errors: ["exports:errors.emptySelection"] }, { status: 422 });
    throw error;
  }
  return redirectWithToast(`/measurements/container${back}`, { type: "info", key: "exports:toast.preparing" });
}
