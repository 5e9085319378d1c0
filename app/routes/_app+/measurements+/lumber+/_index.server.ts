import { deleteLumberMeasurements } from "~/models/lumber.server";
import { ForbiddenError, NotFoundError, TimberValidationError } from "~/models/measurement-kind.server";
import type { AuthContext } from "~/utils/auth-context";
import { db } from "~/utils/db.server";
import { unknownIntent } from "~/utils/errors";
import { redirectWithToast } from "~/utils/toast.server";

// The lumber dashboard's form posts: delete a lumber measurement (the button asks the browser
// to confirm first). Answered by a redirect back to the same filtered view with a toast; the
// model is DELETE /lumber_measurements' (soft delete, editors only, inventory lock).

export async function handleLumberDashboardAction(request: Request, ctx: AuthContext) {
  const form = await request.formData();
  const back = new URL(request.url);
  back.searchParams.delete("index");
  const to = back.pathname + back.search;
  const ids = form
    .getAll("measurement_ids")
    .map((v) => Number(v))
    .filter((n) => Number.isInteger(n) && n > 0);
  try {
    switch (form.get("intent")) {
      case "delete": {
        if (!ids.length) return redirectWithToast(to, { type: "warning", key: "timber:bulk.nothingSelected" });
        const count = await deleteLumberMeasurements(db(), ctx, ids);
        return redirectWithToast(to, { type: "success", key: "lumber:deleted", values: { count } });
      }
      default:
        unknownIntent();
    }
  } catch (error) {
    if (error instanceof TimberValidationError) {
      const key = Object.values(error.errors)[0]?.[0] ?? "timber:errors.failed";
      return redirectWithToast(to, { type: "error", key });
    }
    if (error instanceof NotFoundError) return redirectWithToast(to, { type: "error", key: "timber:errors.notFound" });
    if (error instanceof ForbiddenError)
      return redirectWithToast(to, { type: "warning", key: "timber:errors.forbidden" });
    throw error;
  }
}
