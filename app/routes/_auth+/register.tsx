import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AuthCard, PasswordFields } from "~/components/accounts/password-fields";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { Field } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select-field";
import { EmailTakenError, registerOrganization } from "~/models/account.server";
import { createSession } from "~/models/session.server";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { unknownIntent, issuesToErrors } from "~/utils/errors";
import { getLanguage, i18nServer } from "~/utils/i18n.server";
import { clientIp } from "~/utils/load-context";
import { COUNTRY_CODES, DASHBOARDS, INDUSTRIES, SignupFormSchema, SignupStep1Schema } from "~/utils/schemas/accounts";
import { getSignedInUserId, commitSessionCookie } from "~/utils/session.server";
import { useHydrated } from "~/utils/use-hydrated";

export const handle = { i18n: ["accounts"] };
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Timber" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const done = new URL(request.url).searchParams.get("done") === "1";
  // A signed-in visitor has nothing to register, except to see the success screen once.
  if (!done && (await getSignedInUserId(request))) throw redirect("/");
  const t = await i18nServer.getFixedT(await getLanguage(request), "accounts");
  return json({ done, title: t("register.title") });
}

const STEP1_FIELDS = ["name", "contact_person", "industry", "country_alpha2"] as const;
type Values = Record<string, string | string[]>;
type ActionData = { step: 1 | 2; values: Values; errors: Record<string, string[]> };

// Two steps (the organisation, then the admin's account), then the success screen. The first
// step's answers travel as hidden fields, so it all works as plain form posts.
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const values: Values = {};
  for (const key of [...STEP1_FIELDS, "phone", "admin_email"]) values[key] = String(form.get(key) ?? "");
  values.dashboards = form.getAll("dashboards").map(String);
  const intent = form.get("intent");
  if (intent === "step1") {
    const parsed = SignupStep1Schema.safeParse(values);
    if (!parsed.success)
      return json<ActionData>({ step: 1, values, errors: issuesToErrors(parsed.error.issues) }, { status: 422 });
    return json<ActionData>({ step: 2, values, errors: {} });
  }
  if (intent === "back") return json<ActionData>({ step: 1, values, errors: {} });
  if (intent !== "register") unknownIntent();
  const parsed = SignupFormSchema.safeParse({
    ...values,
    dashboards: values.dashboards.length ? values.dashboards : undefined,
    admin_password: form.get("admin_password"),
    admin_password_confirmation: form.get("admin_password_confirmation"),
  });
  if (!parsed.success) {
    const errors = issuesToErrors(parsed.error.issues);
    const step = STEP1_FIELDS.some((f) => errors[f]) ? 1 : 2;
    return json<ActionData>({ step, values, errors }, { status: 422 });
  }
  try {
    const created = await registerOrganization(db(), parsed.data, await getLanguage(request));
    const session = await createSession(db(), {
      userId: created.userId,
      kind: "web",
      ttlSeconds: env().SESSION_TTL_SECONDS,
      ip: clientIp(context),
      userAgent: request.headers.get("user-agent"),
    });
    return redirect("/register?done=1", {
      headers: { "Set-Cookie": await commitSessionCookie(session.token, session.expiresAt) },
    });
  } catch (error) {
    if (!(error instanceof EmailTakenError)) throw error;
    return json<ActionData>(
      { step: 2, values, errors: { admin_email: ["accounts:register.emailTaken"] } },
      { status: 422 },
    );
  }
}

export default function RegisterPage() {
  const { t } = useTranslation("accounts");
  const { done } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  if (done) {
    return (
      <AuthCard title={t("register.successTitle")}>
        <p data-testid="register-success">{t("register.successText")}</p>
        <Link to="/" className="btn btn-primary btn-block">
          {t("register.goToApp")}
        </Link>
      </AuthCard>
    );
  }
  const step = data?.step ?? 1;
  const values = data?.values ?? {};
  const errors = data?.errors ?? {};
  const err = (k: string) => errors[k]?.map((e) => t(e));
  const v = (k: string) => (typeof values[k] === "string" ? (values[k] as string) : "");
  return (
    <AuthCard title={t("register.title")} wide>
      <p className="steps" data-testid="register-step">
        {t("register.step", { step, total: 2 })}
      </p>
      {step === 1 ? (
        <Form method="POST" key="step1">
          <Field
            label={t("register.name")}
            inputProps={{ name: "name", id: "name", defaultValue: v("name"), required: true, autoFocus: true }}
            errors={err("name")}
          />
          <Field
            label={t("register.contactPerson")}
            inputProps={{
              name: "contact_person",
              id: "contact_person",
              defaultValue: v("contact_person"),
              required: true,
            }}
            errors={err("contact_person")}
          />
          <SelectField
            name="industry"
            label={t("register.industry")}
            value={v("industry")}
            options={INDUSTRIES.map((i) => [i, t(`register.industries.${i}`)])}
            errors={err("industry")}
          />
          <SelectField
            name="country_alpha2"
            label={t("register.country")}
            value={v("country_alpha2")}
            options={countryOptions(t("register.countryLocale"))}
            errors={err("country_alpha2")}
          />
          <fieldset className="checkbox-group">
            <legend>{t("register.dashboards")}</legend>
            {DASHBOARDS.map((d) => (
              <label key={d}>
                <input
                  type="checkbox"
                  name="dashboards"
                  value={d}
                  defaultChecked={values.dashboards ? (values.dashboards as string[]).includes(d) : d === "timber"}
                />{" "}
                {t(`register.dashboard.${d}`)}
              </label>
            ))}
          </fieldset>
          <button type="submit" name="intent" value="step1" className="btn btn-primary btn-block">
            {t("register.next")}
          </button>
        </Form>
      ) : (
        <Step2 values={values} errors={errors} />
      )}
      <p className="auth-links">
        {t("register.haveAccount")} <Link to="/login">{t("register.signIn")}</Link>
      </p>
    </AuthCard>
  );
}

function Step2({ values, errors }: { values: Values; errors: Record<string, string[]> }) {
  const { t } = useTranslation("accounts");
  const [valid, setValid] = useState(false);
  const hydrated = useHydrated();
  const err = (k: string) => errors[k]?.map((e) => t(e));
  return (
    <Form method="POST" key="step2">
      {STEP1_FIELDS.map((f) => (
        <input key={f} type="hidden" name={f} value={String(values[f] ?? "")} />
      ))}
      {((values.dashboards as string[]) ?? []).map((d) => (
        <input key={d} type="hidden" name="dashboards" value={d} />
      ))}
      <Field
        label={t("register.email")}
        inputProps={{
          name: "admin_email",
          id: "admin_email",
          type: "email",
          defaultValue: String(values.admin_email ?? ""),
          required: true,
          autoFocus: true,
        }}
        errors={err("admin_email")}
      />
      <Field
        label={t("register.phone")}
        inputProps={{
          name: "phone",
          id: "phone",
          type: "tel",
          defaultValue: String(values.phone ?? ""),
          required: true,
        }}
        errors={err("phone")}
      />
      <PasswordFields
        name="admin_password"
        confirmName="admin_password_confirmation"
        label={t("register.password")}
        errors={errors.admin_password}
        confirmErrors={errors.admin_password_confirmation}
        onValidChange={setValid}
      />
      <p className="field-hint">{t("register.nameRuleHint")}</p>
      <div className="form-actions">
        <button type="submit" name="intent" value="back" className="btn" formNoValidate>
          {t("register.back")}
        </button>
        <button type="submit" name="intent" value="register" className="btn btn-primary" disabled={hydrated && !valid}>
          {t("register.submit")}
        </button>
      </div>
    </Form>
  );
}

function countryOptions(locale: string): Array<[string, string]> {
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames([locale], { type: "region" });
  } catch {
    names = undefined;
  }
  return COUNTRY_CODES.map((c) => [c, names?.of(c) ?? c] as [string, string]).sort((a, b) => a[1].localeCompare(b[1]));
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
