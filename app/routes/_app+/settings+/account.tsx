import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { PasswordFields } from "~/components/accounts/password-fields";
import { SettingsTabs } from "~/components/accounts/settings-tabs";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { Field } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select-field";
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES } from "~/i18n";
import { changeOwnPassword, WrongCurrentPasswordError } from "~/models/password-change.server";
import { PasswordReusedError } from "~/models/password.server";
import {
  confirmTwoFactor,
  disableTwoFactor,
  pendingTwoFactorSetup,
  provesOwner,
  startTwoFactorSetup,
} from "~/models/two-factor.server";
import { updateAccountPreferences } from "~/models/user.server";
import { requireAppUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { unknownIntent } from "~/utils/errors";
import {
  AccountSettingsFormSchema,
  DENSITY_UNITS,
  DIAMETER_UNITS,
  LENGTH_UNITS,
  SETTINGS_VOLUME_UNITS,
  WEIGHT_UNITS,
} from "~/utils/schemas/account";
import { TwoFactorConfirmFormSchema, TwoFactorProofFormSchema } from "~/utils/schemas/accounts";
import { passwordChangeFormSchema } from "~/utils/schemas/admin";
import { currentSessionToken } from "~/utils/session.server";
import { TIME_ZONES } from "~/utils/time-zones";
import { redirectWithToast } from "~/utils/toast.server";
import { useHydrated } from "~/utils/use-hydrated";

export const handle = { i18n: ["accounts"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  const u = ctx.user;
  return json({
    isAdmin: ctx.isAdmin,
    user: {
      email: u.email,
      name: u.name,
      locale: u.locale,
      time_zone: u.time_zone,
      volume_unit: u.volume_unit,
      length_unit: u.length_unit,
      diameter_unit: u.diameter_unit,
      weight_unit: u.weight_unit,
      density_unit: u.density_unit,
      rounding_precision: u.rounding_precision,
      password_expiry: u.password_expiry,
      otp_enabled: u.otp_enabled,
    },
  });
}

/** Passwords are never sent back with a refused form. */
const SECRET_FIELDS = ["current_password", "password", "password_confirmation"];

type ActionData = {
  form: string;
  /** The refused form's submission (conform's reply). */
  result?: SubmissionResult<string[]>;
  code?: string;
  twoFactor?: { qr_svg: string; backup_codes: string[]; url: string };
  setup?: { qr_svg: string; url: string };
};

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireAppUser(request);
  const form = await request.formData();
  switch (form.get("intent")) {
    case "profile": {
      const submission = parseWithZod(form, { schema: AccountSettingsFormSchema });
      if (submission.status !== "success")
        return json<ActionData>({ form: "profile", result: submission.reply() }, { status: 422 });
      await updateAccountPreferences(db(), ctx.userId, submission.value);
      return redirectWithToast("/settings/account", { type: "success", key: "accounts:settings.saved" });
    }
    case "password": {
      const submission = parseWithZod(form, { schema: passwordChangeFormSchema(!!ctx.user.password_expiry) });
      if (submission.status !== "success")
        return json<ActionData>(
          { form: "password", result: submission.reply({ hideFields: SECRET_FIELDS }) },
          { status: 422 },
        );
      const { current_password, password, password_expiry } = submission.value;
      const expiryChanged = !!password_expiry !== !!ctx.user.password_expiry;
      try {
        await changeOwnPassword(
          db(),
          ctx.userId,
          {
            current_password: current_password ?? "",
            password,
            password_expiry: expiryChanged ? !!password_expiry : undefined,
          },
          await currentSessionToken(request),
        );
      } catch (error) {
        if (error instanceof WrongCurrentPasswordError || error instanceof PasswordReusedError)
          return json<ActionData>(
            { form: "password", code: error.code, result: submission.reply({ hideFields: SECRET_FIELDS }) },
            { status: 422 },
          );
        throw error;
      }
      return redirectWithToast("/settings/account", { type: "success", key: "accounts:settings.passwordSaved" });
    }
    case "enable_2fa": {
      if (ctx.user.otp_enabled) return json<ActionData>({ form: "2fa" }, { status: 409 });
      return json<ActionData>({ form: "2fa", setup: await startTwoFactorSetup(db(), ctx.user) });
    }
    case "confirm_2fa": {
      // Codes are secrets: never sent back.
      const submission = parseWithZod(form, { schema: TwoFactorConfirmFormSchema });
      // Shown once, in this answer only: the backup codes.
      const enabled =
        submission.status === "success" ? await confirmTwoFactor(db(), ctx.user, submission.value.otp_code) : null;
      if (enabled) return json<ActionData>({ form: "2fa", twoFactor: enabled });
      const setup = await pendingTwoFactorSetup(db(), ctx.user);
      const result =
        submission.status === "success"
          ? submission.reply({
              fieldErrors: { otp_code: ["accounts:errors.INVALID_OTP_CODE"] },
              hideFields: ["otp_code"],
            })
          : submission.reply({ hideFields: ["otp_code"] });
      return json<ActionData>({ form: "confirm_2fa", setup: setup ?? undefined, result }, { status: 422 });
    }
    case "disable_2fa": {
      const submission = parseWithZod(form, { schema: TwoFactorProofFormSchema });
      const proof = submission.status === "success" ? submission.value.proof : null;
      if (proof === null || !(await provesOwner(db(), ctx.user, { password: proof, otp_code: proof })))
        return json<ActionData>(
          {
            form: "disable_2fa",
            result: submission.reply({
              fieldErrors: { proof: ["accounts:twoFactor.proofRequired"] },
              hideFields: ["proof"],
            }),
          },
          { status: 422 },
        );
      await disableTwoFactor(db(), ctx.userId);
      return redirectWithToast("/settings/account", { type: "success", key: "accounts:twoFactor.disabled" });
    }
    default:
      unknownIntent();
  }
}

export default function AccountSettingsPage() {
  const { t } = useTranslation("accounts");
  const { user, isAdmin } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const tr = (list: string[] | undefined) => list?.map((e) => t(e));
  const [profile, pf] = useForm({
    id: "account-profile",
    lastResult: data?.form === "profile" ? data.result : undefined,
    defaultValue: { ...user, rounding_precision: String(user.rounding_precision) },
    constraint: getZodConstraint(AccountSettingsFormSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AccountSettingsFormSchema }),
  });
  const passwordSchema = passwordChangeFormSchema(!!user.password_expiry);
  const [password, pw] = useForm({
    id: "account-password",
    lastResult: data?.form === "password" ? data.result : undefined,
    defaultValue: { password_expiry: !!user.password_expiry },
    constraint: getZodConstraint(passwordSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: passwordSchema }),
  });
  const [confirm2fa, confirmFields] = useForm({
    id: "two-factor-confirm",
    lastResult: data?.form === "confirm_2fa" ? data.result : undefined,
    constraint: getZodConstraint(TwoFactorConfirmFormSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TwoFactorConfirmFormSchema }),
  });
  const [disable2fa, proofFields] = useForm({
    id: "two-factor-disable",
    lastResult: data?.form === "disable_2fa" ? data.result : undefined,
    constraint: getZodConstraint(TwoFactorProofFormSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TwoFactorProofFormSchema }),
  });
  const [pwValid, setPwValid] = useState(false);
  const [current, setCurrent] = useState("");
  const [expiry, setExpiry] = useState(pw.password_expiry.initialValue === "on");
  const hydrated = useHydrated();
  const expiryChanged = expiry !== !!user.password_expiry;
  const select = (
    k:
      | "locale"
      | "time_zone"
      | "volume_unit"
      | "length_unit"
      | "diameter_unit"
      | "weight_unit"
      | "density_unit"
      | "rounding_precision",
  ) => ({
    selectProps: getSelectProps(pf[k]),
    errors: tr(pf[k].errors),
  });
  return (
    <div className="page page-narrow">
      <h1 className="page-title">{t("settings.title")}</h1>
      <SettingsTabs isAdmin={isAdmin} />

      <Form method="POST" className="card" data-testid="profile-form" {...getFormProps(profile)}>
        <h2>{t("settings.profile")}</h2>
        <input type="hidden" name="intent" value="profile" />
        <Field
          label={t("settings.email")}
          inputProps={{ id: "email", value: user.email, readOnly: true, disabled: true }}
        />
        <Field
          label={t("settings.name")}
          inputProps={getInputProps(pf.name, { type: "text" })}
          errors={tr(pf.name.errors)}
        />
        <div className="grid-2">
          <SelectField
            label={t("settings.locale")}
            options={SUPPORTED_LANGUAGES.map((l) => [l, LANGUAGE_NAMES[l]])}
            {...select("locale")}
          />
          <SelectField
            label={t("settings.timeZone")}
            options={TIME_ZONES.map((z) => [z, z.replace(/_/g, " ")])}
            {...select("time_zone")}
          />
          <SelectField
            label={t("settings.volumeUnit")}
            options={SETTINGS_VOLUME_UNITS.map((u) => [u, t(`units.${u}`)])}
            {...select("volume_unit")}
          />
          <SelectField
            label={t("settings.lengthUnit")}
            options={LENGTH_UNITS.map((u) => [u, u])}
            {...select("length_unit")}
          />
          <SelectField
            label={t("settings.diameterUnit")}
            options={DIAMETER_UNITS.map((u) => [u, u])}
            {...select("diameter_unit")}
          />
          <SelectField
            label={t("settings.weightUnit")}
            options={WEIGHT_UNITS.map((u) => [u, u])}
            {...select("weight_unit")}
          />
          <SelectField
            label={t("settings.densityUnit")}
            options={DENSITY_UNITS.map((u) => [u, u.replace("^3", "³")])}
            {...select("density_unit")}
          />
          <SelectField
            label={t("settings.precision")}
            options={[1, 2, 3, 4].map((p) => [p, String(p)])}
            {...select("rounding_precision")}
          />
        </div>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary">
            {t("common.save")}
          </button>
        </div>
      </Form>

      <Form method="POST" className="card" data-testid="password-form" {...getFormProps(password)}>
        <h2>{t("settings.password")}</h2>
        <input type="hidden" name="intent" value="password" />
        {data?.form === "password" && data.code ? (
          <div className="alert alert-danger" role="alert">
            {t(`errors.${data.code}`)}
          </div>
        ) : null}
        <Field
          label={t("password.current")}
          inputProps={{
            ...getInputProps(pw.current_password, { type: "password", value: false }),
            autoComplete: "current-password",
            value: current,
            onChange: (e) => setCurrent(e.target.value),
          }}
          errors={tr(pw.current_password.errors)}
        />
        <PasswordFields
          name={pw.password.name}
          confirmName={pw.password_confirmation.name}
          errors={pw.password.errors}
          confirmErrors={pw.password_confirmation.errors}
          onValidChange={setPwValid}
        />
        <label className="checkbox">
          <input
            {...getInputProps(pw.password_expiry, { type: "checkbox", value: false })}
            checked={expiry}
            onChange={(e) => setExpiry(e.target.checked)}
          />{" "}
          {t("settings.passwordExpiry")}
        </label>
        {user.password_expiry ? (
          <p className="field-hint">
            {t("settings.passwordExpiresOn", { date: new Date(user.password_expiry).toISOString().slice(0, 10) })}
          </p>
        ) : null}
        <div className="form-actions">
          <button
            type="submit"
            className="btn btn-primary"
            disabled={hydrated && !((current !== "" && pwValid) || expiryChanged)}
          >
            {t("common.save")}
          </button>
        </div>
      </Form>

      <section className="card" data-testid="two-factor">
        <h2>{t("twoFactor.title")}</h2>
        {data?.twoFactor ? (
          <div className="two-factor-setup">
            <p>{t("twoFactor.scan")}</p>
            <div className="qr" data-testid="otp-qr" dangerouslySetInnerHTML={{ __html: data.twoFactor.qr_svg }} />
            <p className="field-hint">
              {t("twoFactor.manual")} <code data-testid="otp-url">{data.twoFactor.url}</code>
            </p>
            <p>{t("twoFactor.backupText")}</p>
            <ul className="backup-codes" data-testid="backup-codes">
              {data.twoFactor.backup_codes.map((c) => (
                <li key={c}>
                  <code>{c}</code>
                </li>
              ))}
            </ul>
          </div>
        ) : data?.setup ? (
          <Form
            method="POST"
            className="two-factor-setup"
            data-testid="two-factor-confirm"
            {...getFormProps(confirm2fa)}
          >
            <p>{t("twoFactor.scan")}</p>
            <div className="qr" data-testid="otp-qr" dangerouslySetInnerHTML={{ __html: data.setup.qr_svg }} />
            <p className="field-hint">
              {t("twoFactor.manual")} <code data-testid="otp-url">{data.setup.url}</code>
            </p>
            <Field
              label={t("twoFactor.codeLabel")}
              inputProps={{
                ...getInputProps(confirmFields.otp_code, { type: "text" }),
                inputMode: "numeric",
                autoComplete: "one-time-code",
              }}
              errors={tr(confirmFields.otp_code.errors)}
            />
            <button type="submit" name="intent" value="confirm_2fa" className="btn btn-primary">
              {t("twoFactor.confirmSubmit")}
            </button>
          </Form>
        ) : user.otp_enabled ? (
          <>
            <p>
              <span className="badge badge-success">{t("twoFactor.enabled")}</span>
            </p>
            <details open={!!proofFields.proof.errors}>
              <summary className="btn">{t("twoFactor.disable")}</summary>
              <p>{t("twoFactor.disableConfirm")}</p>
              <Form method="POST" data-testid="two-factor-disable" {...getFormProps(disable2fa)}>
                <Field
                  label={t("twoFactor.proofLabel")}
                  inputProps={{
                    ...getInputProps(proofFields.proof, { type: "password" }),
                    autoComplete: "current-password",
                  }}
                  errors={tr(proofFields.proof.errors)}
                />
                <button type="submit" name="intent" value="disable_2fa" className="btn btn-danger">
                  {t("twoFactor.disableSubmit")}
                </button>
              </Form>
            </details>
          </>
        ) : (
          <Form method="POST">
            <p className="muted">{t("twoFactor.off")}</p>
            <button type="submit" name="intent" value="enable_2fa" className="btn btn-primary">
              {t("twoFactor.enable")}
            </button>
          </Form>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
