import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { isLanguage } from "~/i18n";
import { notFound } from "~/utils/errors";
import { translations } from "~/utils/i18n.server";

// All namespaces of one language, for the browser's i18next. Cached: the URL carries a version.
export async function loader({ params }: LoaderFunctionArgs) {
  if (!isLanguage(params.lng)) notFound();
  return json(translations()[params.lng], {
    headers: { "Cache-Control": "public, max-age=3600" },
  });
}
