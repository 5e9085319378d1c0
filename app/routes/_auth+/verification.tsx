import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthCard } from "~/components/accounts/password-fields";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { sendVerification, verifyEmail } from "~/models/account.server";
import { requireUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { unknownIntent } from "~/utils/errors";
import { getSignedInUserId } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";

export const handle = { i18n: ["accounts"] };

// The verification-pending screen; the e-mailed link lands here with ?token=.
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  if (token) {
    const verified = await verifyEmail(db(), token);
    const signedIn = await getSignedInUserId(request);
    if (verified)
      return redirectWithToast(signedIn ? "/" : "/login", { type: "success", key: "accounts:verification.done" });
    if (!signedIn) return redirectWithToast("/login", { type: "warning", key: "accounts:verification.invalidLink" });
    const ctx = await requireUser(request);
    if (ctx.user.verified_at) throw redirect("/");
    return json({ email: ctx.user.email, sentAt: ctx.user.verification_sent_at, invalidLink: true });
  }
  const ctx = await requireUser(request);
  if (ctx.user.verified_at) throw redirect("/");
  return json({ email: ctx.user.email, sentAt: ctx.user.verification_sent_at, invalidLink: false });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireUser(request);
  const form = await request.formData();
  if (form.get("intent") !== "resend") unknownIntent();
  await sendVerification(db(), ctx.userId);
  return redirectWithToast("/verification", { type: "success", key: "accounts:verification.sent" });
}

export default function VerificationPage() {
  const { t } = useTranslation("accounts");
  const { email, sentAt, invalidLink } = useLoaderData<typeof loader>();
  return (
    <AuthCard title={t("verification.title")}>
      {invalidLink ? (
        <div className="alert alert-warning" role="alert">
          {t("verification.invalidLink")}
        </div>
      ) : null}
      <p data-testid="verification-pending">
        {sentAt ? t("verification.sentTo", { email }) : t("verification.notSent", { email })}
      </p>
      <Form method="POST">
        <button type="submit" name="intent" value="resend" className="btn btn-primary btn-block">
          {sentAt ? t("verification.resend") : t("verification.send")}
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
