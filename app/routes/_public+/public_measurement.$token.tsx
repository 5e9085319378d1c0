import { useLoaderData } from "@remix-run/react";
import { PublicErrorBoundary } from "~/components/public/public-error-boundary";
import { PublicMeasurement } from "~/components/public/public-measurement";
import { publicMeta } from "~/utils/public-meta";
import { loadPublicMeasurement } from "~/utils/public-pages.server";
import { publicHeaders, publicJson } from "~/utils/public-route.server";
import type { LoaderFunctionArgs } from "@remix-run/node";

// /public_measurement/{token}: a shared measurement, for anyone with the link (no sign-in).
// /public_measurement/{token}.jpeg is its picture (public_measurement.$token[.jpeg].ts).

export const handle = { i18n: ["public", "timber", "lookups", "trust"] };
export const headers = publicHeaders;
export const meta = publicMeta;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { view, title } = await loadPublicMeasurement(request, context, params.token);
  return publicJson({ view, title });
}

export default function PublicMeasurementPage() {
  const { view } = useLoaderData<typeof loader>();
  return <PublicMeasurement view={view} vmu={false} />;
}

export const ErrorBoundary = PublicErrorBoundary;
