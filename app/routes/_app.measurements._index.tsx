import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/utils/auth.server";

/** /measurements opens the mode the user worked in last (timber by default). */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireUser(request);
  const mode = ctx.user.recent_measurement_mode;
  const allowed = mode === "cmpc" ? ctx.organization.cmpc_enabled : true;
  return redirect(`/measurements/${allowed ? mode : "timber"}`);
}
