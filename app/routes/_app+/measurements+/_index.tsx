import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAppUser } from "~/utils/auth.server";

// The modes whose list screen is built; the others are still placeholders (_app+/$.tsx) and
// never the landing page.
const BUILT_MODES: readonly string[] = ["timber", "lumber", "truck", "container", "cmpc"];

/** /measurements opens the mode the user worked in last (timber by default). */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  const mode = ctx.user.recent_measurement_mode;
  const allowed = BUILT_MODES.includes(mode) && (mode !== "cmpc" || ctx.organization.cmpc_enabled);
  return redirect(`/measurements/${allowed ? mode : "timber"}`);
}
