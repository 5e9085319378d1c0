import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
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
import { unknownIntent } from "~/utils/errors";
import { getLanguage, i18nServer } from "~/utils/i18n.server";
import { clientIp } from "~/utils/load-context";
import {
  COUNTRY_CODES,
  DASHBOARDS,
  INDUSTRIES,
  SignupFormSchema,
  SignupStep1FormSchema,
} from "~/utils/schemas/accounts";
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

/** Step 1's fields, carried through step 2 as hidden fields. */
const STEP1_FIELDS = ["name", "contact_person", "industry", "country_alpha2"] as const;
/** Passwords are never sent back. */
const SECRETS = ["admin_password", "admin_password_confirmation"];
type ActionData = { step: 1 | 2; result: SubmissionResult<string[]> };

// Two steps (the organisation, then the admin's account), then the success screen. The first
// step's answers travel as hidden fields, so it all works as plain form posts.
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  switch (form.get("intent")) {
    case "step1": {
      const submission = parseWithZod(form, { schema: SignupStep1FormSchema });
      if (submission.status !== "success")
        return json<ActionData>({ step: 1, result: submission.reply() }, { status: 422 });
      return json<ActionData>({ step: 2, result: submission.reply() });
    }
    case "back":
      return json<ActionData>({
        step: 1,
        result: parseWithZod(form, { schema: SignupStep1FormSchema }).reply({ hideFields: SECRETS }),
      });
    case "register": {
      const submission = parseWithZod(form, { schema: SignupFormSchema });
      if (submission.status !== "success") {
        const step = STEP1_FIELDS.some((f) => submission.error?.[f]) ? 1 : 2;
        return json<ActionData>({ step, result: submission.reply({ hideFields: SECRETS }) }, { status: 422 });
      }
      try {
        const created = await registerOrganization(db(), submission.value, await getLanguage(request));
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
          {
            step: 2,
            result: submission.reply({
              fieldErrors: { admin_email: ["accounts:register.emailTaken"] },
              hideFields: SECRETS,
            }),
          },
          { status: 422 },
        );
      }
    }
    default:
      unknownIntent();
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
  return (
    <AuthCard title={t("register.title")} wide>
      <p className="steps" data-testid="register-step">
        {t("register.step", { step, total: 2 })}
      </p>
      {step === 1 ? <Step1 key="step1" lastResult={data?.result} /> : <Step2 key="step2" lastResult={data?.result} />}
      <p className="auth-links">
        {t("register.haveAccount")} <Link to="/login">{t("register.signIn")}</Link>
      </p>
    </AuthCard>
  );
}

/** A hidden input per value of a field (a list, such as the dashboards, gives several). */
function Hidden({ name, value }: { name: string; value: unknown }) {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return (
    <>
      {list.map((v, i) => (
        <input key={`${name}-${i}`} type="hidden" name={name} value={String(v)} />
      ))}
    </>
  );
}

function Step1({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation("accounts");
  const [form, fields] = useForm({
    id: "register-step1",
    lastResult,
    defaultValue: { dashboards: ["timber"] },
    constraint: getZodConstraint(SignupStep1FormSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SignupStep1FormSchema }),
  });
  const tr = (list?: string[]) => list?.map((e) => t(e));
  const initial = form.initialValue as Record<string, unknown> | undefined;
  const dashboards = fields.dashboards.initialValue;
  const chosen = Array.isArray(dashboards) ? dashboards : dashboards ? [dashboards] : [];
  return (
    <Form method="POST" {...getFormProps(form)}>
      {/* What step 2 had (when coming back) goes forward again. */}
      <Hidden name="admin_email" value={initial?.admin_email} />
      <Hidden name="phone" value={initial?.phone} />
      <Field
        label={t("register.name")}
        inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoFocus: true }}
        errors={tr(fields.name.errors)}
      />
      <Field
        label={t("register.contactPerson")}
        inputProps={getInputProps(fields.contact_person, { type: "text" })}
        errors={tr(fields.contact_person.errors)}
      />
      <SelectField
        label={t("register.industry")}
        options={INDUSTRIES.map((i) => [i, t(`register.industries.${i}`)])}
        selectProps={getSelectProps(fields.industry)}
        errors={tr(fields.industry.errors)}
      />
      <SelectField
        label={t("register.country")}
        options={countryOptions(t("register.countryLocale"))}
        selectProps={getSelectProps(fields.country_alpha2)}
        errors={tr(fields.country_alpha2.errors)}
      />
      <fieldset className="checkbox-group">
        <legend>{t("register.dashboards")}</legend>
        {DASHBOARDS.map((d) => (
          <label key={d}>
            <input type="checkbox" name={fields.dashboards.name} value={d} defaultChecked={chosen.includes(d)} />{" "}
            {t(`register.dashboard.${d}`)}
          </label>
        ))}
        {fields.dashboards.errors ? (
          <ul className="field-errors">
            {tr(fields.dashboards.errors)!.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        ) : null}
      </fieldset>
      <button type="submit" name="intent" value="step1" className="btn btn-primary btn-block">
        {t("register.next")}
      </button>
    </Form>
  );
}

const parseSignup = (formData: FormData) => parseWithZod(formData, { schema: SignupFormSchema });

function Step2({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation("accounts");
  const [valid, setValid] = useState(false);
  const hydrated = useHydrated();
  const [form, fields] = useForm({
    id: "register-step2",
    lastResult,
    constraint: getZodConstraint(SignupFormSchema),
    shouldValidate: "onSubmit",
    // "Back" keeps what was typed and checks only step 1's fields (those are hidden here).
    onValidate: ({ formData }) =>
      formData.get("intent") === "back"
        ? (parseWithZod(formData, { schema: SignupStep1FormSchema }) as unknown as ReturnType<typeof parseSignup>)
        : parseSignup(formData),
  });
  const tr = (list?: string[]) => list?.map((e) => t(e));
  const initial = (form.initialValue ?? {}) as Record<string, unknown>;
  return (
    <Form method="POST" {...getFormProps(form)}>
      {STEP1_FIELDS.map((f) => (
        <Hidden key={f} name={f} value={initial[f]} />
      ))}
      <Hidden name="dashboards" value={initial.dashboards} />
      <Field
        label={t("register.email")}
        inputProps={{ ...getInputProps(fields.admin_email, { type: "email" }), autoFocus: true }}
        errors={tr(fields.admin_email.errors)}
      />
      <Field
        label={t("register.phone")}
        inputProps={getInputProps(fields.phone, { type: "tel" })}
        errors={tr(fields.phone.errors)}
      />
      <PasswordFields
        name={fields.admin_password.name}
        confirmName={fields.admin_password_confirmation.name}
        label={t("register.password")}
        errors={fields.admin_password.errors}
        confirmErrors={fields.admin_password_confirmation.errors}
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
