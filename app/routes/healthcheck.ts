import { json } from "@remix-run/node";
import { databaseChecks } from "~/services/health.server";

/**
 * GET /healthcheck: 200 when MySQL and the PostgreSQL job database both answer, 503 otherwise.
 * Kept as it was for existing monitors; /healthcheck/live and /healthcheck/ready split it.
 */
export async function loader() {
  const { ok, mysql, postgres } = await databaseChecks();
  return json(
    { status: ok ? "ok" : "error", mysql, postgres },
    { status: ok ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
