import { json } from "@remix-run/node";

/** GET /healthcheck/live: liveness. 200 while the process can answer at all; touches no database. */
export async function loader() {
  return json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
