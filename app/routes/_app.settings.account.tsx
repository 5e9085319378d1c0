import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { PasswordFields, useHydrated } from "~/components/accounts/password-fields";
import { SettingsTabs } from "~/components/accounts/settings-tabs";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { Field } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select-field";
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES } from "~/i18n";
import { changeOwnPassword, WrongCurrentPasswordError } from "~/models/password-change.server";
import { PasswordReusedError } from "~/models/password.server";
import { disableTwoFactor, enableTwoFactor } from "~/models/two-factor.server";
import { updateAccountPreferences } from "~/models/user.server";
import { issuesToErrors, unknownIntent } from "~/utils/admin-screen.server";
import { requireUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { AccountSettingsSchema, DENSITY_UNITS, DIAMETER_UNITS, LENGTH_UNITS, SETTINGS_VOLUME_UNITS, WEIGHT_UNITS } from "~/utils/schemas/account";
import { NewPasswordSchema } from "~/utils/schemas/password";
import { TIME_ZONES } from "~/utils/time-zones";
import { redirectWithToast } from "~/utils/toast.server";

export const handle = { i18n: ["accounts"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireUser(request);
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

type ActionData = { form: string; errors?: Record<string, string[]>; code?: string; twoFactor?: { qr_svg: string; backup_codes: string[]; url: string } };

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireUser(request);
  const form = await request.formData();
  switch (form.get("intent")) {
    case "profile": {
      const parsed = AccountSettingsSchema.safeParse(Object.fromEntries([...form.entries()].filter(([k]) => k !== "intent")));
      if (!parsed.success) return json<ActionData>({ form: "profile", errors: issuesToErrors(parsed.error.issues) }, { status: 422 });
      await updateAccountPreferences(db(), ctx.userId, parsed.data);
      return redirectWithToast("/settings/account", { type: "success", key: "accounts:settings.saved" });
    }
    case "password": {
      const current = String(form.get("current_password") ?? "");
      const password = String(form.get("password") ?? "");
      const confirmation = String(form.get("password_confirmation") ?? "");
      const expiry = form.get("password_expiry") === "on";
      const expiryChanged = expiry !== !!ctx.user.password_expiry;
      const errors: Record<string, string[]> = {};
      if (password) {
        const rules = NewPasswordSchema.safeParse(password);
        if (!rules.success) errors.password = rules.error.issues.map((i) => i.message);
        if (password !== confirmation) errors.password_confirmation = ["accounts:password.mismatch"];
        if (!current) errors.current_password = ["accounts:password.currentRequired"];
      } else if (!expiryChanged) {
        errors.password = ["accounts:password.required"];
      }
      if (Object.keys(errors).length) return json<ActionData>({ form: "password", errors }, { status: 422 });
      try {
        await changeOwnPassword(db(), ctx.userId, { current_password: current, password: password || undefined, password_expiry: expiryChanged ? expiry : undefined });
      } catch (error) {
        if (error instanceof WrongCurrentPasswordError || error instanceof PasswordReusedError) return json<ActionData>({ form: "password", code: error.code }, { status: 422 });
        throw error;
      }
      return redirectWithToast("/settings/account", { type: "success", key: "accounts:settings.passwordSaved" });
    }
    case "enable_2fa": {
      // Shown once, in this answer only: the scan code and the backup codes.
      const setup = await enableTwoFactor(db(), ctx.user);
      return json<ActionData>({ form: "2fa", twoFactor: setup });
    }
    case "disable_2fa":
      await disableTwoFactor(db(), ctx.userId);
      return redirectWithToast("/settings/account", { type: "success", key: "accounts:twoFactor.disabled" });
    default:
      unknownIntent();
  }
}

export default function AccountSettingsPage() {
  const { t } = useTranslation("accounts");
  const { user, isAdmin } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const errors = (form: string) => (data?.form === form ? data.errors ?? {} : {});
  const err = (form: string, k: string) => errors(form)[k]?.map((e) => t(e));
  const [pwValid, setPwValid] = useState(false);
  const [current, setCurrent] = useState("");
  const [expiry, setExpiry] = useState(!!user.password_expiry);
  const hydrated = useHydrated();
  const expiryChanged = expiry !== !!user.password_expiry;
  return (
    <div className="page page-narrow">
      <h1 className="page-title">{t("settings.title")}</h1>
      <SettingsTabs isAdmin={isAdmin} />

      <Form method="POST" className="card" data-testid="profile-form">
        <h2>{t("settings.profile")}</h2>
        <input type="hidden" name="intent" value="profile" />
        <Field label={t("settings.email")} inputProps={{ id: "email", value: user.email, readOnly: true, disabled: true }} />
        <Field label={t("settings.name")} inputProps={{ name: "name", id: "name", defaultValue: user.name ?? "", required: true }} errors={err("profile", "name")} />
        <div className="grid-2">
          <SelectField name="locale" label={t("settings.locale")} value={user.locale} options={SUPPORTED_LANGUAGES.map((l) => [l, LANGUAGE_NAMES[l]])} errors={err("profile", "locale")} />
          <SelectField name="time_zone" label={t("settings.timeZone")} value={user.time_zone} options={TIME_ZONES.map((z) => [z, z.replace(/_/g, " ")])} errors={err("profile", "time_zone")} />
          <SelectField name="volume_unit" label={t("settings.volumeUnit")} value={user.volume_unit} options={SETTINGS_VOLUME_UNITS.map((u) => [u, t(`units.${u}`)])} errors={err("profile", "volume_unit")} />
          <SelectField name="length_unit" label={t("settings.lengthUnit")} value={user.length_unit} options={LENGTH_UNITS.map((u) => [u, u])} />
          <SelectField name="diameter_unit" label={t("settings.diameterUnit")} value={user.diameter_unit} options={DIAMETER_UNITS.map((u) => [u, u])} />
          <SelectField name="weight_unit" label={t("settings.weightUnit")} value={user.weight_unit} options={WEIGHT_UNITS.map((u) => [u, u])} />
          <SelectField name="density_unit" label={t("settings.densityUnit")} value={user.density_unit} options={DENSITY_UNITS.map((u) => [u, u.replace("^3", "³")])} />
          <SelectField name="rounding_precision" label={t("settings.precision")} value={user.rounding_precision} options={[1, 2, 3, 4].map((p) => [p, String(p)])} errors={err("profile", "rounding_precision")} />
        </div>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary">{t("common.save")}</button>
        </div>
      </Form>

      <Form method="POST" className="card" data-testid="password-form">
        <h2>{t("settings.password")}</h2>
        <input type="hidden" name="intent" value="password" />
        {data?.form === "password" && data.code ? (
          <div className="alert alert-danger" role="alert">{t(`errors.${data.code}`)}</div>
        ) : null}
        <Field label={t("password.current")} inputProps={{ name: "current_password", id: "current_password", type: "password", autoComplete: "current-password", value: current, onChange: (e) => setCurrent(e.target.value) }} errors={err("password", "current_password")} />
        <PasswordFields name="password" confirmName="password_confirmation" errors={errors("password").password} confirmErrors={errors("password").password_confirmation} onValidChange={setPwValid} />
        <label className="checkbox">
          <input type="checkbox" name="password_expiry" checked={expiry} onChange={(e) => setExpiry(e.target.checked)} /> {t("settings.passwordExpiry")}
        </label>
        {user.password_expiry ? <p className="field-hint">{t("settings.passwordExpiresOn", { date: new Date(user.password_expiry).toISOString().slice(0, 10) })}</p> : null}
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={hydrated && !((current !== "" && pwValid) || expiryChanged)}>{t("common.save")}</button>
        </div>
      </Form>

      <section className="card" data-testid="two-factor">
        <h2>{t("twoFactor.title")}</h2>
        {data?.twoFactor ? (
          <div className="two-factor-setup">
            <p>{t("twoFactor.scan")}</p>
            <div className="qr" data-testid="otp-qr" dangerouslySetInnerHTML={{ __html: data.twoFactor.qr_svg }} />
            <p className="field-hint">{t("twoFactor.manual")} <code data-testid="otp-url">{data.twoFactor.url}</code></p>
            <p>{t("twoFactor.backupText")}</p>
            <ul className="backup-codes" data-testid="backup-codes">
              {data.twoFactor.backup_codes.map((c) => <li key={c}><code>{c}</code></li>)}
            </ul>
          </div>
        ) : user.otp_enabled ? (
          <>
            <p><span className="badge badge-success">{t("twoFactor.enabled")}</span></p>
            <details>
              <summary className="btn">{t("twoFactor.disable")}</summary>
              <p>{t("twoFactor.disableConfirm")}</p>
              <Form method="POST">
                <button type="submit" name="intent" value="disable_2fa" className="btn btn-danger">{t("twoFactor.disableSubmit")}</button>
              </Form>
            </details>
          </>
        ) : (
          <Form method="POST">
            <p className="muted">{t("twoFactor.off")}</p>
            <button type="submit" name="intent" value="enable_2fa" className="btn btn-primary">{t("twoFactor.enable")}</button>
          </Form>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
