import { isRouteErrorResponse } from "@remix-run/react";

/** Unexpected errors are logged with the request id the server put on the request. */
export function logError(error: unknown, request?: Request) {
  if (isRouteErrorResponse(error) || error instanceof Response) return;
  const requestId = request?.headers.get("x-request-id") ?? "-";
  const where = request ? `${request.method} ${new URL(request.url).pathname}` : "";
  console.error(`[request ${requestId}] ${where}`, error instanceof Error ? (error.stack ?? error.message) : error);
}
