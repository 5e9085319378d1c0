import { json } from "@remix-run/node";
import { openApiDocument } from "~/services/openapi.server";
import { methodNotAllowed } from "~/utils/api.server";

/** GET /api/openapi.json: the OpenAPI 3.1 description of /api/web_app and /api/device (decision 024). Public. */
export function loader() {
  return json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } });
}

export function action() {
  return methodNotAllowed();
}
