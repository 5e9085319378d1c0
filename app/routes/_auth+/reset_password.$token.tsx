import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { resetPasswordWithToken } from "~/models/account.server";
import { findUserToken } from "~/models/user-token.server";
import { db } from "~/utils/db.server";
import { ResetPasswordFormSchema } from "~/utils/schemas/accounts";
import { SetPasswordPage } from "./__set-password-page";
import { setPasswordFromToken } from "./__set-password.server";

export const handle = { i18n: ["accounts"] };

export async function loader({ params }: LoaderFunctionArgs) {
  return json({ valid: !!(await findUserToken(db(), params.token, "password_reset")) });
}

export async function action({ request, params }: ActionFunctionArgs) {
  return setPasswordFromToken(request, {
    schema: ResetPasswordFormSchema,
    passwordField: "new_password",
    tokenErrorCode: "INVALID_PASSWORD_RESET_TOKEN",
    apply: (data) => resetPasswordWithToken(db(), params.token ?? "", data.new_password),
    successKey: "accounts:reset.done",
  });
}

export default function ResetPasswordPage() {
  const { t } = useTranslation("accounts");
  const { valid } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <SetPasswordPage
      valid={valid}
      result={result}
      title={t("reset.title")}
      submit={t("reset.submit")}
      tokenErrorCode="INVALID_PASSWORD_RESET_TOKEN"
      passwordField="new_password"
      schema={ResetPasswordFormSchema}
      testId="reset-error"
    />
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
