import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthCard } from "~/components/accounts/password-fields";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { markSetupDone } from "~/models/user.server";
import { requireUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";

export const handle = { i18n: ["accounts"] };

// The device-pairing screen: the organisation's device key for the mobile app. Continuing
// records devices_updated_at so the access guard stops sending the user here.
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireUser(request);
  if (!ctx.user.verified_at) throw redirect("/verification");
  return json({ deviceKey: ctx.organization.device_activation_code });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireUser(request);
  await markSetupDone(db(), ctx.userId);
  return redirect("/");
}

export default function SetupPage() {
  const { t } = useTranslation("accounts");
  const { deviceKey } = useLoaderData<typeof loader>();
  return (
    <AuthCard title={t("setup.title")}>
      <p>{t("setup.text")}</p>
      <p className="store-links">
        <a href="https://apps.apple.com/" rel="noreferrer" target="_blank">
          App Store
        </a>
        {" · "}
        <a href="https://play.google.com/store" rel="noreferrer" target="_blank">
          Google Play
        </a>
      </p>
      {deviceKey ? (
        <div className="device-key">
          <span>{t("setup.deviceKey")}</span>
          <strong data-testid="device-key">{deviceKey}</strong>
        </div>
      ) : (
        <div className="alert alert-warning" role="alert" data-testid="no-device-key">
          {t("setup.noKey")}
        </div>
      )}
      <Form method="POST">
        <button type="submit" className="btn btn-primary btn-block">
          {t("setup.continue")}
        </button>
      </Form>
      <Form method="POST" action="/logout" reloadDocument className="auth-links">
        <button type="submit" className="btn btn-ghost btn-block">
          {t("common.logout")}
        </button>
      </Form>
    </AuthCard>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
