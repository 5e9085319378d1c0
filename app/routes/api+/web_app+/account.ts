import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { serializeAccount, updateAccountPreferences } from "~/models/user.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser, loadAuthContext } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { isFormPost } from "~/utils/request.server";
import { safeRedirect } from "~/utils/safe-redirect";
import { AccountPatchSchema } from "~/utils/schemas/account";

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  return json(serializeAccount(ctx.user, ctx.roles));
}

/** PATCH /api/web_app/account {user:{locale?, recent_measurement_mode?}}; the header's language form posts here too. */
export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireApiUser(request);
  if (isFormPost(request)) {
    const form = await request.formData();
    const parsed = AccountPatchSchema.safeParse({ user: { locale: form.get("locale") ?? undefined } });
    if (parsed.success) await updateAccountPreferences(db(), ctx.userId, parsed.data.user);
    return redirect(safeRedirect(form.get("redirectTo")));
  }
  if (request.method !== "PATCH") methodNotAllowed();
  const { user } = await parseBody(request, AccountPatchSchema);
  if (user.recent_measurement_mode === "cmpc" && !ctx.organization.cmpc_enabled) {
    return json(
      {
        error: "validation_failed",
        errors: { "user.recent_measurement_mode": ["accounts:errors.MODE_UNAVAILABLE"] },
      },
      { status: 422 },
    );
  }
  await updateAccountPreferences(db(), ctx.userId, user);
  const fresh = await loadAuthContext(ctx.userId);
  return json(serializeAccount(fresh!.user, fresh!.roles));
}
