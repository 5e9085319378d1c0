import { useLoaderData } from "@remix-run/react";
import { PublicErrorBoundary } from "~/components/public/public-error-boundary";
import { PublicMeasurement } from "~/components/public/public-measurement";
import { publicMeta } from "~/utils/public-meta";
import { loadPublicMeasurement } from "~/utils/public-pages.server";
import { publicHeaders, publicJson } from "~/utils/public-route.server";
import type { LoaderFunctionArgs } from "@remix-run/node";

// /vmu_public/{token}: the metrology form of a shared measurement, for organisations with the
// vmu flag (their public-link dialog gives this form): the same page plus the metrology checks
// with their values and validity. Another organisation's token opens nothing here.

export const handle = { i18n: ["public", "timber", "lookups", "trust"] };
export const headers = publicHeaders;
export const meta = publicMeta;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { view, title } = await loadPublicMeasurement(request, context, params.token, { vmuOnly: true });
  return publicJson({ view, title });
}

export default function VmuPublicMeasurementPage() {
  const { view } = useLoaderData<typeof loader>();
  return <PublicMeasurement view={view} vmu />;
}

export const ErrorBoundary = PublicErrorBoundary;
