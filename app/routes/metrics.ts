import { metricsAllowed, metricsText, queueDepth, registerCollectedMetrics } from "~/services/metrics.server";
import { env } from "~/utils/env.server";
import type { LoaderFunctionArgs } from "@remix-run/node";

/**
 * GET /metrics: this web process's Prometheus series, for a scraper holding METRICS_TOKEN as a
 * bearer token. Without METRICS_TOKEN set, or with another token, it is not there (404).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!metricsAllowed(request.headers.get("Authorization"), env().METRICS_TOKEN)) {
    return new Response("Not Found", { status: 404, headers: { "Cache-Control": "no-store" } });
  }
  registerCollectedMetrics(queueDepth);
  const { body, contentType } = await metricsText();
  return new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
}
