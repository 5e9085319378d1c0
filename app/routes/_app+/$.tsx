import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { EmptyState } from "~/components/ui/empty-state";
import { requireAppUser, requireOrgAdmin } from "~/utils/auth.server";
import { notFound } from "~/utils/errors";
import { useRememberMeasurementMode } from "~/utils/use-measurement-mode";

// Screens of the sidebar whose issues have not landed yet show the shell with a plain empty
// state here. A real route file for the same path wins over this splat, so each lands by
// adding its file and deleting its line below. Any other path is the not-found notice.
const PLANNED: Array<{
  path: string;
  key: string;
  adminOnly?: boolean;
  mode?: "container" | "truck" | "lumber" | "cmpc";
}> = [
  { path: "/measurements/container", key: "container", mode: "container" },
  { path: "/measurements/cmpc", key: "cmpc", mode: "cmpc" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  const pathname = new URL(request.url).pathname.replace(/\/+$/, "");
  const screen = PLANNED.find((p) => pathname === p.path || pathname.startsWith(`${p.path}/`));
  if (!screen) notFound();
  if (screen.adminOnly) requireOrgAdmin(ctx);
  if (screen.mode === "cmpc" && !ctx.organization.cmpc_enabled) notFound();
  return json({ key: screen.key, mode: screen.mode ?? null, recentMode: ctx.user.recent_measurement_mode });
}

export default function PlannedScreen() {
  const { key, mode, recentMode } = useLoaderData<typeof loader>();
  const { t } = useTranslation("shell");
  // Entering a mode remembers it (the spec), even a placeholder's; /measurements still opens
  // only a built one.
  useRememberMeasurementMode(mode, recentMode);
  return (
    <div className="page">
      <h1 className="page-title">{t(`screens.${key}.title`)}</h1>
      <EmptyState title={t("screens.emptyTitle")} text={t(`screens.${key}.empty`)} testId="planned-screen" />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
