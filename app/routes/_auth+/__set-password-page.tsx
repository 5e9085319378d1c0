import { Form, Link } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AuthCard, PasswordFields } from "~/components/accounts/password-fields";
import { useHydrated } from "~/utils/use-hydrated";
import type { SetPasswordResult } from "./__set-password.server";

/** The page behind an e-mailed token that sets a password (reset, invitation). */
export function SetPasswordPage({
  valid,
  result,
  title,
  submit,
  tokenErrorCode,
  passwordField,
  testId,
}: {
  valid: boolean;
  result: SetPasswordResult | undefined;
  title: string;
  submit: string;
  tokenErrorCode: string;
  passwordField: string;
  testId: string;
}) {
  const { t } = useTranslation("accounts");
  const [ok, setOk] = useState(false);
  const hydrated = useHydrated();
  const tokenProblem = !valid || result?.code === tokenErrorCode;
  return (
    <AuthCard title={title}>
      {tokenProblem ? (
        <div className="alert alert-warning" role="alert" data-testid={testId}>
          {t(`errors.${tokenErrorCode}`)}
        </div>
      ) : result?.code ? (
        <div className="alert alert-danger" role="alert" data-testid={testId}>
          {t(`errors.${result.code}`)}
        </div>
      ) : null}
      {tokenProblem ? null : (
        <Form method="POST">
          <PasswordFields
            name={passwordField}
            confirmName="password_confirmation"
            errors={result?.errors?.[passwordField]}
            confirmErrors={result?.errors?.password_confirmation}
            onValidChange={setOk}
          />
          <button type="submit" className="btn btn-primary btn-block" disabled={hydrated && !ok}>
            {submit}
          </button>
        </Form>
      )}
      <p className="auth-links">
        <Link to="/login">{t("reset.backToLogin")}</Link>
      </p>
    </AuthCard>
  );
}
