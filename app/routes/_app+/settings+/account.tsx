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
import { issuesToErrors, unknownIntent } from "~/utils/errors";
import { postedValues } from "~/utils/form-values";
import {
  AccountSettingsSchema,
  DENSITY_UNITS,
  DIAMETER_UNITS,
  LENGTH_UNITS,
  SETTINGS_VOLUME_UNITS,
  WEIGHT_UNITS,
} from "~/utils/schemas/account";
import { NewPasswordSchema } from "~/utils/schemas/password";
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

type ActionData = {
  form: string;
  errors?: Record<string, string[]>;
  /** What was typed into the profile form when it was refused. */
  values?: Record<string, string>;
  code?: string;
  twoFactor?: { qr_svg: string; backup_codes: string[]; url: string };
  setup?: { qr_svg: string; url: string };
};

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireAppUser(request);
  const form = await request.formData();
  switch (form.get("intent")) {
    case "profile": {
      const parsed = AccountSettingsSchema.safeParse(
        Object.fromEntries([...form.entries()].filter(([k]) => k !== "intent")),
      );
      if (!parsed.success)
        return json<ActionData>(
          { form: "profile", errors: issuesToErrors(parsed.error.issues), values: postedValues(form) },
          { status: 422 },
        );
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
        await changeOwnPassword(
          db(),
          ctx.userId,
          {
            current_password: current,
            password: password || undefined,
            password_expiry: expiryChanged ? expiry : undefined,
          },
          await currentSessionToken(request),
        );
      } catch (error) {
        if (error instanceof WrongCurrentPasswordError || error instanceof PasswordReusedError)
          return json<ActionData>({ form: "password", code: error.code }, { status: 422 });
        throw error;
      }
      return redirectWithToast("/settings/account", { type: "success", key: "accounts:settings.passwordSaved" });
    }
    case "enable_2fa": {
      if (ctx.user.otp_enabled) return json<ActionData>({ form: "2fa" }, { status: 409 });
      return json<ActionData>({ form: "2fa", setup: await startTwoFactorSetup(db(), ctx.user) });
    }
    case "confirm_2fa": {
      // Shown once, in this answer only: the backup codes.
      const enabled = await confirmTwoFactor(db(), ctx.user, String(form.get("otp_code") ?? ""));
      if (enabled) return json<ActionData>({ form: "2fa", twoFactor: enabled });
      const setup = await pendingTwoFactorSetup(db(), ctx.user);
      return json<ActionData>(
        { form: "2fa", setup: setup ?? undefined, errors: { otp_code: ["accounts:errors.INVALID_OTP_CODE"] } },
        { status: 422 },
      );
    }
    case "disable_2fa": {
      const proof = String(form.get("proof") ?? "").trim();
      if (!(await provesOwner(db(), ctx.user, { password: proof, otp_code: proof })))
        return json<ActionData>(
          { form: "2fa", errors: { proof: ["accounts:twoFactor.proofRequired"] } },
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
  const errors = (form: string) => (data?.form === form ? (data.errors ?? {}) : {});
  const err = (form: string, k: string) => errors(form)[k]?.map((e) => t(e));
  // The profile fields show what was posted when the server refused it, else the stored values.
  const shown = (k: keyof typeof user) =>
    data?.form === "profile" && data.values?.[k] !== undefined ? data.values[k] : user[k];
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
        <Field
          label={t("settings.email")}
          inputProps={{ id: "email", value: user.email, readOnly: true, disabled: true }}
        />
        <Field
          label={t("settings.name")}
          inputProps={{ name: "name", id: "name", defaultValue: String(shown("name") ?? ""), required: true }}
          errors={err("profile", "name")}
        />
        <div className="grid-2">
          <SelectField
            name="locale"
            label={t("settings.locale")}
            value={shown("locale") as string | number}
            options={SUPPORTED_LANGUAGES.map((l) => [l, LANGUAGE_NAMES[l]])}
            errors={err("profile", "locale")}
          />
          <SelectField
            name="time_zone"
            label={t("settings.timeZone")}
            value={shown("time_zone") as string | number}
            options={TIME_ZONES.map((z) => [z, z.replace(/_/g, " ")])}
            errors={err("profile", "time_zone")}
          />
          <SelectField
            name="volume_unit"
            label={t("settings.volumeUnit")}
            value={shown("volume_unit") as string | number}
            options={SETTINGS_VOLUME_UNITS.map((u) => [u, t(`units.${u}`)])}
            errors={err("profile", "volume_unit")}
          />
          <SelectField
            name="length_unit"
            label={t("settings.lengthUnit")}
            value={shown("length_unit") as string | number}
            options={LENGTH_UNITS.map((u) => [u, u])}
          />
          <SelectField
            name="diameter_unit"
            label={t("settings.diameterUnit")}
            value={shown("diameter_unit") as string | number}
            options={DIAMETER_UNITS.map((u) => [u, u])}
          />
          <SelectField
            name="weight_unit"
            label={t("settings.weightUnit")}
            value={shown("weight_unit") as string | number}
            options={WEIGHT_UNITS.map((u) => [u, u])}
          />
          <SelectField
            name="density_unit"
            label={t("settings.densityUnit")}
            value={shown("density_unit") as string | number}
            options={DENSITY_UNITS.map((u) => [u, u.replace("^3", "³")])}
          />
          <SelectField
            name="rounding_precision"
            label={t("settings.precision")}
            value={shown("rounding_precision") as string | number}
            options={[1, 2, 3, 4].map((p) => [p, String(p)])}
            errors={err("profile", "rounding_precision")}
          />
        </div>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary">
            {t("common.save")}
          </button>
        </div>
      </Form>

      <Form method="POST" className="card" data-testid="password-form">
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
            name: "current_password",
            id: "current_password",
            type: "password",
            autoComplete: "current-password",
            value: current,
            onChange: (e) => setCurrent(e.target.value),
          }}
          errors={err("password", "current_password")}
        />
        <PasswordFields
          name="password"
          confirmName="password_confirmation"
          errors={errors("password").password}
          confirmErrors={errors("password").password_confirmation}
          onValidChange={setPwValid}
        />
        <label className="checkbox">
          <input
            type="checkbox"
            name="password_expiry"
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
          <Form method="POST" className="two-factor-setup" data-testid="two-factor-confirm">
            <p>{t("twoFactor.scan")}</p>
            <div className="qr" data-testid="otp-qr" dangerouslySetInnerHTML={{ __html: data.setup.qr_svg }} />
            <p className="field-hint">
              {t("twoFactor.manual")} <code data-testid="otp-url">{data.setup.url}</code>
            </p>
            <Field
              label={t("twoFactor.codeLabel")}
              inputProps={{ name: "otp_code", inputMode: "numeric", autoComplete: "one-time-code", required: true }}
              errors={err("2fa", "otp_code")}
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
            <details open={!!err("2fa", "proof")}>
              <summary className="btn">{t("twoFactor.disable")}</summary>
              <p>{t("twoFactor.disableConfirm")}</p>
              <Form method="POST">
                <Field
                  label={t("twoFactor.proofLabel")}
                  inputProps={{ name: "proof", type: "password", autoComplete: "current-password", required: true }}
                  errors={err("2fa", "proof")}
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
