import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useSearchParams, useSubmit } from "@remix-run/react";
import { AuthorizationError } from "remix-auth";
import { useTranslation } from "react-i18next";
import { Field } from "~/components/ui/field";
import { LANGUAGE_NAMES, LOGIN_LANGUAGES, isLanguage } from "~/i18n";
import { LoginError } from "~/models/login.server";
import { createSession } from "~/models/session.server";
import { authenticator } from "~/utils/authenticator.server";
import { getOptionalUserId } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { getLanguage, i18nServer, languageCookie } from "~/utils/i18n.server";
import { useIsPending } from "~/utils/misc";
import { LoginFormSchema } from "~/utils/schemas/auth";
import { commitSessionCookie } from "~/utils/session.server";

export const handle = { i18n: ["auth"] };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Timber" }];

function safeRedirect(to: unknown) {
  return typeof to === "string" && to.startsWith("/") && !to.startsWith("//") ? to : "/";
}

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (await getOptionalUserId(request)) throw redirect(safeRedirect(url.searchParams.get("redirectTo")));
  const lng = url.searchParams.get("lng");
  const headers = new Headers();
  if (isLanguage(lng)) headers.append("Set-Cookie", await languageCookie.serialize(lng));
  const t = await i18nServer.getFixedT(await getLanguage(request), "auth");
  return json(
    { language: await getLanguage(request), expired: url.searchParams.get("expired") === "1", title: t("login.title") },
    { headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  // conform and remix-auth both read the body: validate on a clone.
  const submission = parseWithZod(await request.clone().formData(), { schema: LoginFormSchema });
  if (submission.status !== "success") {
    return json({ result: submission.reply({ hideFields: ["password"] }), code: null }, { status: 422 });
  }
  try {
    const user = await authenticator.authenticate("form", request);
    const session = await createSession(db(), {
      userId: user.id,
      kind: "web",
      ttlSeconds: env().SESSION_TTL_SECONDS,
      ip: request.headers.get("x-forwarded-for"),
      userAgent: request.headers.get("user-agent"),
    });
    return redirect(safeRedirect(submission.value.redirectTo), {
      headers: { "Set-Cookie": await commitSessionCookie(session.token, session.expiresAt) },
    });
  } catch (error) {
    const cause = error instanceof AuthorizationError ? error.cause : error;
    if (cause instanceof LoginError) {
      // The spec: each login error has its own message and clears the form.
      return json({ result: submission.reply({ resetForm: true }), code: cause.code }, { status: 401 });
    }
    throw error;
  }
}

export default function LoginPage() {
  const { t } = useTranslation(["auth", "common"]);
  const { language, expired } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const isPending = useIsPending();
  const submit = useSubmit();
  const [form, fields] = useForm({
    id: "login",
    lastResult: actionData?.result,
    constraint: getZodConstraint(LoginFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginFormSchema }),
    shouldRevalidate: "onBlur",
  });
  const translateErrors = (errors?: string[]) => errors?.map((e) => t(e));

  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="auth-brand">
          <img src="/logo.svg" alt="" width={40} height={40} />
          <span>{t("common:app.name")}</span>
        </div>
        <h1>{t("login.title")}</h1>
        {expired ? (
          <div className="alert alert-warning" role="alert" data-testid="session-expired">
            {t("login.sessionExpired")}
          </div>
        ) : null}
        {actionData?.code ? (
          <div className="alert alert-danger" role="alert" data-testid="login-error">
            {t(`errors.${actionData.code}`)}
          </div>
        ) : null}
        <Form method="POST" {...getFormProps(form)}>
          <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? "/"} />
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
        <Form method="GET" className="language-picker" onChange={(e) => submit(e.currentTarget)}>
          <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? "/"} />
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
      </div>
    </main>
  );
}
