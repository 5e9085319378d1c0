import { useId, type SelectHTMLAttributes } from "react";
import { useTranslation } from "react-i18next";

/**
 * The one labelled select, wired like Field (aria-invalid, aria-describedby, the errors below).
 * With conform pass `selectProps={getSelectProps(fields.x)}`; plain forms pass name and value.
 * The first, empty option says `placeholder` ("Choose" by default); `placeholder={false}` leaves it out.
 * `groups` adds labelled option groups after `options`.
 */
export function SelectField({
  name,
  label,
  value,
  options,
  groups,
  errors,
  required = true,
  selectProps,
  placeholder,
  placeholderDisabled = false,
}: {
  name?: string;
  label: string;
  value?: string | number | null;
  options: Array<[string | number, string]>;
  groups?: Array<{ label: string; options: Array<[string | number, string]> }>;
  errors?: string[] | null;
  required?: boolean;
  selectProps?: SelectHTMLAttributes<HTMLSelectElement> & { key?: string | null };
  placeholder?: string | false;
  placeholderDisabled?: boolean;
}) {
  const { t } = useTranslation("accounts");
  const fallbackId = useId();
  const { key: _key, ...props } = selectProps ?? {};
  const id = props.id ?? name ?? fallbackId;
  const errorId = errors?.length ? `${id}-error` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        key={_key ?? undefined}
        id={id}
        name={name}
        defaultValue={selectProps ? undefined : (value ?? "")}
        required={selectProps ? undefined : required}
        {...props}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={errorId}
      >
        {placeholder === false ? null : (
          <option value="" disabled={placeholderDisabled}>
            {placeholder ?? t("common.choose")}
          </option>
        )}
        {options.map(([k, l]) => (
          <option key={k} value={k}>
            {l}
          </option>
        ))}
        {groups?.map((g) => (
          <optgroup key={g.label} label={g.label}>
            {g.options.map(([k, l]) => (
              <option key={k} value={k}>
                {l}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      {errorId ? (
        <ul className="field-errors" id={errorId}>
          {errors!.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
