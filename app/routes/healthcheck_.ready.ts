import { json } from "@remix-run/node";
import { databaseChecks, isDraining } from "~/services/health.server";

/**
 * GET /healthcheck/ready: readiness. 200 when MySQL and PostgreSQL answer; 503 when one does not,
 * or while the process is stopping (SIGTERM), so a load balancer sends it nothing new.
 */
export async function loader() {
  if (isDraining()) {
    return json({ status: "stopping" }, { status: 503, headers: { "Cache-Control": "no-store" } });
  }
  const { ok, mysql, postgres } = await databaseChecks();
  return json(
    { status: ok ? "ok" : "error", mysql, postgres },
    { status: ok ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
