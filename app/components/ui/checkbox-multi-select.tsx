import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "~/utils/use-hydrated";

/**
 * A multi-select as a dropdown of checkboxes: one click per option (no Ctrl-click), every row
 * visible in a scrolling list, a search box once JavaScript runs. It is a <details> with plain
 * checkboxes of one name, so without JavaScript it opens and submits like any form field
 * (name=1&name=2, which the filters read as a list).
 */
export function CheckboxMultiSelect({
  id,
  name,
  label,
  options,
  selected,
  invalid,
}: {
  id: string;
  name: string;
  label: string;
  options: Array<{ id: number | string; name: string }>;
  selected: string[];
  invalid?: boolean;
}) {
  const { t } = useTranslation("timber");
  const hydrated = useHydrated();
  const [checked, setChecked] = useState(() => new Set(selected));
  const [query, setQuery] = useState("");
  const q = query.trim().toLocaleLowerCase();
  const names = options.filter((o) => checked.has(String(o.id))).map((o) => o.name);
  const summary =
    names.length === 0
      ? t("filters.any")
      : names.length <= 2
        ? names.join(", ")
        : t("filters.selectedCount", { count: names.length });
  return (
    <div className="field">
      <span className="field-label" id={`${id}-label`}>
        {label}
      </span>
      <details className="multi-select" data-testid={`multi-${name}`}>
        <summary
          className="multi-select-summary"
          aria-labelledby={`${id}-label ${id}-summary`}
          aria-invalid={invalid || undefined}
        >
          <span id={`${id}-summary`}>{summary}</span>
        </summary>
        <div className="multi-select-panel" role="group" aria-labelledby={`${id}-label`}>
          {hydrated && options.length > 6 ? (
            <input
              type="search"
              className="multi-select-search"
              placeholder={t("filters.search")}
              aria-label={t("filters.searchIn", { label })}
              value={query}
              onChange={(e) => setQuery(e.target.value)}
            />
          ) : null}
          <ul className="multi-select-list">
            {options.map((o) => {
              const value = String(o.id);
              const hidden = q !== "" && !o.name.toLocaleLowerCase().includes(q);
              return (
                <li key={value} hidden={hidden}>
                  <label>
                    <input
                      type="checkbox"
                      name={name}
                      value={value}
                      defaultChecked={selected.includes(value)}
                      onChange={(e) => {
                        const next = new Set(checked);
                        if (e.target.checked) next.add(value);
                        else next.delete(value);
                        setChecked(next);
                      }}
                    />
                    <span>{o.name}</span>
                  </label>
                </li>
              );
            })}
          </ul>
        </div>
      </details>
    </div>
  );
}
