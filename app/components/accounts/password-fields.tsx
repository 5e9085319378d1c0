import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "~/components/ui/field";
import { PASSWORD_RULES } from "~/utils/schemas/password";

/**
 * A new password, its confirmation and the live rule checklist. `onValidChange` tells the form
 * whether all rules are met and the confirmation matches, so submit stays disabled until then
 * (without JavaScript the server checks the same rules).
 */
export function PasswordFields({
  name,
  confirmName,
  errors,
  confirmErrors,
  onValidChange,
  label,
}: {
  name: string;
  confirmName: string;
  errors?: string[];
  confirmErrors?: string[];
  onValidChange?: (valid: boolean) => void;
  label?: string;
}) {
  const { t } = useTranslation("accounts");
  const [value, setValue] = useState("");
  const [confirm, setConfirm] = useState("");
  const update = (v: string, c: string) => {
    setValue(v);
    setConfirm(c);
    onValidChange?.(PASSWORD_RULES.every((r) => r.test(v)) && v === c);
  };
  const ref = useRef<HTMLDivElement>(null);
  // Whatever was typed before hydration counts too.
  useEffect(() => {
    const inputs = ref.current?.querySelectorAll("input");
    if (inputs && (inputs[0]?.value || inputs[1]?.value)) update(inputs[0].value, inputs[1].value);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, at hydration
  }, []);
  return (
    <div ref={ref} className="password-fields">
      <Field
        label={label ?? t("password.new")}
        inputProps={{
          name,
          id: name,
          type: "password",
          autoComplete: "new-password",
          required: true,
          value,
          onChange: (e) => update(e.target.value, confirm),
        }}
        errors={errors?.map((e) => t(e))}
      />
      <ul className="password-rules" data-testid="password-rules">
        {PASSWORD_RULES.map((r) => (
          <li key={r.key} className={r.test(value) ? "met" : undefined}>
            {t(`password.rule.${r.key}`)}
          </li>
        ))}
      </ul>
      <Field
        label={t("password.confirmation")}
        inputProps={{
          name: confirmName,
          id: confirmName,
          type: "password",
          autoComplete: "new-password",
          required: true,
          value: confirm,
          onChange: (e) => update(value, e.target.value),
        }}
        errors={confirmErrors?.map((e) => t(e))}
      />
    </div>
  );
}

/** The centred card of the public account pages (login, register, reset, invitation, verification, setup). */
export function AuthCard({ title, children, wide }: { title: string; children: React.ReactNode; wide?: boolean }) {
  const { t } = useTranslation("common");
  return (
    <main className="auth-page">
      <div className={wide ? "auth-card auth-card-wide" : "auth-card"}>
        <div className="auth-brand">
          <img src="/logo.svg" alt="" width={40} height={40} />
          <span>{t("app.name")}</span>
        </div>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
