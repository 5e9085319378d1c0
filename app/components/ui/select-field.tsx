import { useTranslation } from "react-i18next";

/** A labelled select with the same error wiring as Field; the empty first option says "Choose". */
export function SelectField({ name, label, value, options, errors, required = true }: { name: string; label: string; value: string | number | null | undefined; options: Array<[string | number, string]>; errors?: string[]; required?: boolean }) {
  const { t } = useTranslation("accounts");
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <select id={name} name={name} defaultValue={value ?? ""} required={required} aria-invalid={errors?.length ? true : undefined} aria-describedby={errors?.length ? `${name}-error` : undefined}>
        <option value="">{t("common.choose")}</option>
        {options.map(([k, l]) => (
          <option key={k} value={k}>
            {l}
          </option>
        ))}
      </select>
      {errors?.length ? <ul className="field-errors" id={`${name}-error`}>{errors.map((e) => <li key={e}>{e}</li>)}</ul> : null}
    </div>
  );
}

