import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { requireAppUser } from "~/utils/auth.server";
import { notFound } from "~/utils/errors";
import type { LoaderFunctionArgs } from "@remix-run/node";

// Any path inside the app that no route file claims: signed-out visitors go to the login, the
// signed-in see the not-found notice in the shell (the error boundary below).
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAppUser(request);
  notFound();
}

export default function UnknownScreen() {
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
