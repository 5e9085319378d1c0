import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AuthCard, PasswordFields, useHydrated } from "~/components/accounts/password-fields";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { InvalidTokenError, acceptInvitation } from "~/models/account.server";
import { PasswordReusedError } from "~/models/password.server";
import { findUserToken } from "~/models/user-token.server";
import { db } from "~/utils/db.server";
import { AcceptInvitationSchema } from "~/utils/schemas/accounts";
import { redirectWithToast } from "~/utils/toast.server";

export const handle = { i18n: ["accounts"] };

export async function loader({ params }: LoaderFunctionArgs) {
  return json({ valid: !!(await findUserToken(db(), params.token, "invitation")) });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const form = await request.formData();
  const parsed = AcceptInvitationSchema.safeParse({ ...Object.fromEntries(form), invitation_token: params.token });
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const i of parsed.error.issues) (errors[i.path.join(".")] ??= []).push(i.message);
    const rule = errors.password?.some((m) => m.startsWith("accounts:password.rule"));
    return json({ code: rule ? "PASSWORD_DOES_NOT_MEET_REQUIREMENTS" : null, errors }, { status: 422 });
  }
  try {
    await acceptInvitation(db(), parsed.data.invitation_token, parsed.data.password);
  } catch (error) {
    if (error instanceof InvalidTokenError) return json({ code: "INVALID_INVITATION_TOKEN", errors: {} as Record<string, string[]> }, { status: 400 });
    if (error instanceof PasswordReusedError) return json({ code: "PASSWORD_ALREADY_USED", errors: {} as Record<string, string[]> }, { status: 422 });
    throw error;
  }
  return redirectWithToast("/login", { type: "success", key: "accounts:invitation.done" });
}

export default function AcceptInvitationPage() {
  const { t } = useTranslation("accounts");
  const { valid } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const [ok, setOk] = useState(false);
  const hydrated = useHydrated();
  const tokenProblem = !valid || data?.code === "INVALID_INVITATION_TOKEN";
  return (
    <AuthCard title={t("invitation.title")}>
      {tokenProblem ? (
        <div className="alert alert-warning" role="alert" data-testid="invitation-error">
          {t("errors.INVALID_INVITATION_TOKEN")}
        </div>
      ) : data?.code ? (
        <div className="alert alert-danger" role="alert" data-testid="invitation-error">
          {t(`errors.${data.code}`)}
        </div>
      ) : null}
      {tokenProblem ? null : (
        <Form method="POST">
          <PasswordFields name="password" confirmName="password_confirmation" errors={data?.errors?.new_password} confirmErrors={data?.errors?.password_confirmation} onValidChange={setOk} />
          <button type="submit" className="btn btn-primary btn-block" disabled={hydrated && !ok}>
            {t("invitation.submit")}
          </button>
        </Form>
      )}
      <p className="auth-links">
        <Link to="/login">{t("reset.backToLogin")}</Link>
      </p>
    </AuthCard>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
