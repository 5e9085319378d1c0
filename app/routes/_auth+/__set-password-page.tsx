import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, Link } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AuthCard, PasswordFields } from "~/components/accounts/password-fields";
import { useHydrated } from "~/utils/use-hydrated";
import type { SetPasswordResult } from "./__set-password.server";
import type { z } from "zod";

/** The page behind an e-mailed token that sets a password (reset, invitation). */
export function SetPasswordPage({
  valid,
  result,
  title,
  submit,
  tokenErrorCode,
  passwordField,
  schema,
  testId,
}: {
  valid: boolean;
  result: SetPasswordResult | undefined;
  title: string;
  submit: string;
  tokenErrorCode: string;
  passwordField: string;
  schema: z.ZodObject;
  testId: string;
}) {
  const { t } = useTranslation("accounts");
  const [ok, setOk] = useState(false);
  const hydrated = useHydrated();
  const [form, fields] = useForm({
    id: "set-password",
    lastResult: result?.result,
    constraint: getZodConstraint(schema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
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
        <Form method="POST" {...getFormProps(form)}>
          <PasswordFields
            name={fields[passwordField].name}
            confirmName={fields.password_confirmation.name}
            errors={fields[passwordField].errors}
            confirmErrors={fields.password_confirmation.errors}
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
