import { json, type ActionFunctionArgs } from "@remix-run/node";
import { sendVerification } from "~/models/account.server";
import { methodNotAllowed } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";

/** POST /api/web_app/users/resend_verification: a fresh link (older ones stop working); 422 when already verified. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireApiUser(request);
  if (!(await sendVerification(db(), ctx.userId))) {
    return json({ error: "ALREADY_VERIFIED" }, { status: 422 });
  }
  return json({ message: "Verification sent" });
}

export function loader() {
  return methodNotAllowed();
}
