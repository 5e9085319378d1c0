import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { acceptInvitation } from "~/models/account.server";
import { findUserToken } from "~/models/user-token.server";
import { db } from "~/utils/db.server";
import { AcceptInvitationFormSchema } from "~/utils/schemas/accounts";
import { SetPasswordPage } from "./__set-password-page";
import { setPasswordFromToken } from "./__set-password.server";

export const handle = { i18n: ["accounts"] };

export async function loader({ params }: LoaderFunctionArgs) {
  return json({ valid: !!(await findUserToken(db(), params.token, "invitation")) });
}

export async function action({ request, params }: ActionFunctionArgs) {
  return setPasswordFromToken(request, {
    schema: AcceptInvitationFormSchema,
    passwordField: "password",
    tokenErrorCode: "INVALID_INVITATION_TOKEN",
    apply: (data) => acceptInvitation(db(), params.token ?? "", data.password),
    successKey: "accounts:invitation.done",
  });
}

export default function AcceptInvitationPage() {
  const { t } = useTranslation("accounts");
  const { valid } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <SetPasswordPage
      valid={valid}
      result={result}
      title={t("invitation.title")}
      submit={t("invitation.submit")}
      tokenErrorCode="INVALID_INVITATION_TOKEN"
      passwordField="password"
      schema={AcceptInvitationFormSchema}
      testId="invitation-error"
    />
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
