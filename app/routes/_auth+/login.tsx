import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams, useSubmit } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AuthorizationError } from "remix-auth";
import { AuthCard, PasswordFields } from "~/components/accounts/password-fields";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { Field } from "~/components/ui/field";
import { LANGUAGE_NAMES, LOGIN_LANGUAGES, isLanguage } from "~/i18n";
import { sendPasswordReset } from "~/models/account.server";
import { completeOtpLogin, LoginError } from "~/models/login.server";
import { changeExpiredPassword } from "~/models/password-change.server";
import { PasswordReusedError } from "~/models/password.server";
import { createSession } from "~/models/session.server";
import { consumeUserToken, createUserToken } from "~/models/user-token.server";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { unknownIntent } from "~/utils/errors";
import { getLanguage, i18nServer, languageCookie } from "~/utils/i18n.server";
import { clientIp } from "~/utils/load-context";
import { useIsPending } from "~/utils/misc";
import { safeRedirect } from "~/utils/safe-redirect";
import { ChangeExpiredPasswordSchema, ForgotPasswordSchema } from "~/utils/schemas/accounts";
import { LoginFormSchema } from "~/utils/schemas/auth";
import { commitSessionCookie, getSignedInUserId } from "~/utils/session.server";
import { useHydrated } from "~/utils/use-hydrated";
import { authenticator } from "./login.server";

export const handle = { i18n: ["auth", "accounts"] };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Timber" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (await getSignedInUserId(request)) throw redirect(safeRedirect(url.searchParams.get("redirectTo")));
  const lng = url.searchParams.get("lng");
  const headers = new Headers();
  if (isLanguage(lng)) headers.append("Set-Cookie", await languageCookie.serialize(lng));
  const t = await i18nServer.getFixedT(await getLanguage(request), "auth");
  return json(
    {
      language: await getLanguage(request),
      expired: url.searchParams.get("expired") === "1",
      idle: url.searchParams.get("idle") === "1",
      title: t("login.title"),
    },
    { headers },
  );
}

type Step = "password" | "otp" | "expired" | "forgot";
/** The expired-password form's passwords are never sent back (its e-mail is kept). */
const EXPIRED_SECRETS = ["current_password", "new_password", "password_confirmation"];
type ActionData = {
  step: Step;
  code?: string | null;
  notice?: string | null;
  pending?: string;
  email?: string;
  redirectTo?: string;
  result?: SubmissionResult<string[]>;
};

async function signIn(request: Request, ip: string | null, userId: number, redirectTo: unknown) {
  const session = await createSession(db(), {
    userId,
    kind: "web",
    ttlSeconds: env().SESSION_TTL_SECONDS,
    ip,
    userAgent: request.headers.get("user-agent"),
  });
  return redirect(safeRedirect(redirectTo), {
    headers: { "Set-Cookie": await commitSessionCookie(session.token, session.expiresAt) },
  });
}

// The login state machine (accounts.md section 4): password -> (one-time code) -> signed in, or
// password -> expired-password form. Each error code has its own message and clears the form.
export async function action({ request, context }: ActionFunctionArgs) {
  // remix-auth reads the body again for the password step: read a clone here.
  const form = await request.clone().formData();
  const intent = form.get("intent") ?? "login";
  const redirectTo = form.get("redirectTo");
  const reply = (data: ActionData, status = 200) => json<ActionData>(data, { status });
  switch (intent) {
    case "login": {
      const submission = parseWithZod(form, { schema: LoginFormSchema });
      if (submission.status !== "success")
        return reply({ step: "password", result: submission.reply({ hideFields: ["password"] }) }, 422);
      try {
        const outcome = await authenticator.authenticate("form", request);
        if (outcome.status === "ok") return signIn(request, clientIp(context), outcome.user.id, redirectTo);
        if (outcome.status === "password_expired")
          return reply({ step: "expired", email: outcome.user.email, notice: "passwordExpired" }, 400);
        // The password was right: a short-lived token carries that to the code step.
        const pending = await createUserToken(db(), { userId: outcome.user.id, purpose: "login_otp" });
        return reply({ step: "otp", pending }, 202);
      } catch (thrown) {
        const error = thrown instanceof AuthorizationError ? thrown.cause : thrown;
        if (!(error instanceof LoginError)) throw thrown;
        return reply({ step: "password", code: error.code, result: submission.reply({ resetForm: true }) }, 401);
      }
    }
    case "otp": {
      const row = await consumeUserToken(db(), String(form.get("pending") ?? ""), "login_otp");
      const code = String(form.get("otp_code") ?? "").trim();
      if (!row) return reply({ step: "password", code: "OTP_STEP_EXPIRED" }, 401);
      try {
        const user = await completeOtpLogin(db(), row.user_id, code);
        return signIn(request, clientIp(context), user.id, redirectTo);
      } catch (error) {
        if (!(error instanceof LoginError)) throw error;
        // A wrong code resets to the first step.
        return reply({ step: "password", code: error.code }, 401);
      }
    }
    case "change_password": {
      const submission = parseWithZod(form, { schema: ChangeExpiredPasswordSchema });
      const email = String(form.get("email") ?? "");
      const expired = (extra: Partial<ActionData>, status: number) =>
        reply({ step: "expired", email, result: submission.reply({ hideFields: EXPIRED_SECRETS }), ...extra }, status);
      if (submission.status !== "success") return expired({}, 422);
      try {
        await changeExpiredPassword(db(), submission.value);
        return reply({ step: "password", notice: "passwordChanged" });
      } catch (error) {
        if (error instanceof PasswordReusedError) return expired({ code: "PASSWORD_ALREADY_USED" }, 422);
        if (error instanceof LoginError) return reply({ step: "password", code: error.code }, 401);
        throw error;
      }
    }
    case "forgot_password": {
      const submission = parseWithZod(form, { schema: ForgotPasswordSchema });
      if (submission.status !== "success") return reply({ step: "forgot", result: submission.reply() }, 422);
      await sendPasswordReset(db(), submission.value.email);
      return reply({ step: "password", notice: "forgotSent" });
    }
    default:
      unknownIntent();
  }
}

export default function LoginPage() {
  const { t } = useTranslation(["auth", "accounts", "common"]);
  const { language, expired, idle } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get("redirectTo") ?? "/";
  const step = data?.step ?? "password";
  const submit = useSubmit();

  return (
    <AuthCard
      title={
        step === "otp"
          ? t("accounts:login.otpTitle")
          : step === "expired"
            ? t("accounts:login.expiredTitle")
            : t("login.title")
      }
    >
      {expired && !data ? (
        <div className="alert alert-warning" role="alert" data-testid="session-expired">
          {t("login.sessionExpired")}
        </div>
      ) : null}
      {idle && !data ? (
        <div className="alert alert-info" role="status" data-testid="idle-logged-out">
          {t("accounts:idle.loggedOut")}
        </div>
      ) : null}
      {data?.code ? (
        <div className="alert alert-danger" role="alert" data-testid="login-error">
          {data.code in { INVALID_EMAIL_OR_PASSWORD: 1, ACCOUNT_LOCKED: 1, CONTACT_SUPPORT: 1 }
            ? t(`errors.${data.code}`)
            : t(`accounts:errors.${data.code}`)}
        </div>
      ) : null}
      {data?.notice ? (
        <div
          className={data.notice === "passwordExpired" ? "alert alert-warning" : "alert alert-info"}
          role="status"
          data-testid="login-notice"
        >
          {t(`accounts:login.${data.notice}`)}
        </div>
      ) : null}
      {step === "otp" ? (
        <OtpStep pending={data!.pending!} redirectTo={redirectTo} />
      ) : step === "expired" ? (
        <ExpiredStep email={data!.email!} lastResult={data?.result} />
      ) : step === "forgot" || (searchParams.get("forgot") === "1" && !data) ? (
        <ForgotPanel lastResult={data?.result} />
      ) : (
        <PasswordStep redirectTo={redirectTo} lastResult={data?.result} />
      )}
      <p className="auth-links">
        {t("accounts:login.noAccount")} <Link to="/register">{t("accounts:login.register")}</Link>
      </p>
      <Form method="GET" className="language-picker" onChange={(e) => submit(e.currentTarget)}>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <label htmlFor="lng">{t("login.language")}</label>
        <select id="lng" name="lng" defaultValue={language}>
          {LOGIN_LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {LANGUAGE_NAMES[l]}
            </option>
          ))}
        </select>
        <noscript>
          <button type="submit" className="btn btn-small">
            {t("login.applyLanguage")}
          </button>
        </noscript>
      </Form>
    </AuthCard>
  );
}

function PasswordStep({ redirectTo, lastResult }: { redirectTo: string; lastResult?: ActionData["result"] }) {
  const { t } = useTranslation(["auth", "accounts"]);
  const isPending = useIsPending();
  const [form, fields] = useForm({
    id: "login",
    lastResult,
    constraint: getZodConstraint(LoginFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginFormSchema }),
    shouldRevalidate: "onBlur",
  });
  const translateErrors = (errors?: string[]) => errors?.map((e) => t(e));
  return (
    <>
      <Form method="POST" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="login" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field
          label={t("login.email")}
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", autoFocus: true }}
          errors={translateErrors(fields.email.errors)}
        />
        <Field
          label={t("login.password")}
          inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "current-password" }}
          errors={translateErrors(fields.password.errors)}
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={isPending}>
          {isPending ? t("login.submitting") : t("login.submit")}
        </button>
      </Form>
      <p className="auth-links">
        <Link to={`/login?forgot=1&redirectTo=${encodeURIComponent(redirectTo)}`} data-testid="forgot-password-link">
          {t("accounts:forgot.link")}
        </Link>
      </p>
    </>
  );
}

/** The forgot-password dialog: a panel of /login (?forgot=1), so it works without JavaScript. */
function ForgotPanel({ lastResult }: { lastResult?: ActionData["result"] }) {
  const { t } = useTranslation("accounts");
  const [form, fields] = useForm({
    id: "forgot",
    lastResult,
    constraint: getZodConstraint(ForgotPasswordSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ForgotPasswordSchema }),
  });
  return (
    <Form
      method="POST"
      action="/login"
      data-testid="forgot-password"
      role="dialog"
      aria-labelledby="forgot-title"
      {...getFormProps(form)}
    >
      <h2 id="forgot-title" className="auth-subtitle">
        {t("forgot.link")}
      </h2>
      <input type="hidden" name="intent" value="forgot_password" />
      <p className="field-hint">{t("forgot.text")}</p>
      <Field
        label={t("forgot.email")}
        inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", autoFocus: true }}
        errors={fields.email.errors?.map((e) => t(e))}
      />
      <div className="form-actions">
        <Link to="/login" className="btn">
          {t("common.cancel")}
        </Link>
        <button type="submit" className="btn btn-primary">
          {t("forgot.submit")}
        </button>
      </div>
    </Form>
  );
}

function OtpStep({ pending, redirectTo }: { pending: string; redirectTo: string }) {
  const { t } = useTranslation("accounts");
  return (
    <Form method="POST">
      <input type="hidden" name="intent" value="otp" />
      <input type="hidden" name="pending" value={pending} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <p className="field-hint">{t("login.otpText")}</p>
      <Field
        label={t("login.otpCode")}
        inputProps={{
          name: "otp_code",
          id: "otp_code",
          autoComplete: "one-time-code",
          required: true,
          autoFocus: true,
        }}
      />
      <button type="submit" className="btn btn-primary btn-block">
        {t("login.otpSubmit")}
      </button>
    </Form>
  );
}

function ExpiredStep({ email, lastResult }: { email: string; lastResult?: ActionData["result"] }) {
  const { t } = useTranslation("accounts");
  const [valid, setValid] = useState(false);
  const hydrated = useHydrated();
  const [form, fields] = useForm({
    id: "expired-password",
    lastResult,
    defaultValue: { email },
    constraint: getZodConstraint(ChangeExpiredPasswordSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ChangeExpiredPasswordSchema }),
  });
  return (
    <Form method="POST" data-testid="expired-form" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="change_password" />
      <input {...getInputProps(fields.email, { type: "hidden" })} />
      <Field
        label={t("password.current")}
        inputProps={{
          ...getInputProps(fields.current_password, { type: "password" }),
          autoComplete: "current-password",
        }}
        errors={fields.current_password.errors?.map((e) => t(e))}
      />
      <PasswordFields
        name={fields.new_password.name}
        confirmName={fields.password_confirmation.name}
        errors={fields.new_password.errors}
        confirmErrors={fields.password_confirmation.errors}
        onValidChange={setValid}
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={hydrated && !valid}>
        {t("password.changeSubmit")}
      </button>
    </Form>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
