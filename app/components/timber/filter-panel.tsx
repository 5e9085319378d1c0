import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CheckboxMultiSelect } from "~/components/ui/checkbox-multi-select";
import { DAY_INPUT_PROPS } from "~/components/ui/day-input";
import { isoDayToDisplay } from "~/domain";
import { measurementTypeName, storageStateName } from "~/utils/lookup-name";

export interface FilterLookups {
  storages: Array<{ id: number; name: string }>;
  woodTypes: Array<{ id: number; name: string }>;
  woodQualities: Array<{ id: number; name: string }>;
  assortments: Array<{ id: number; name: string }>;
  devices: Array<{ id: number; name: string }>;
  /** The lumber dashboard's product filter. */
  lumberProducts?: Array<{ id: number; name: string }>;
  customFields: Array<{ id: number; key: string; name: string; data_type: string; values: string[] }>;
}

const ids = (v: string | undefined) => (v ? v.split(",") : []);

/**
 * Every GET /dashboard_filter parameter as a plain GET form: works without JavaScript, the URL
 * is the filter. Empty inputs are dropped by the server; lists are multi-selects (repeated
 * parameters join with commas); integer and decimal custom fields take numbers only. The lumber
 * dashboard shows the fields a lumber measurement has (no measured time, species, qualities,
 * assortments, shipment or log length; its lumber products instead).
 */
export function FilterPanel({
  values,
  errors,
  lookups,
  kind = "timber",
}: {
  values: Record<string, string>;
  errors: Record<string, string[]>;
  lookups: FilterLookups;
  kind?: "timber" | "lumber";
}) {
  const timber = kind === "timber";
  const { t } = useTranslation(["timber", "lookups"]);
  const err = (name: string) =>
    errors[name]?.length ? (
      <ul className="field-errors" id={`f-${name}-error`}>
        {errors[name].map((e) => (
          <li key={e}>{t(e)}</li>
        ))}
      </ul>
    ) : null;
  const multi = (name: string, label: string, options: Array<{ id: number | string; name: string }>) => (
    <>
      <CheckboxMultiSelect
        id={`f-${name}`}
        name={name}
        label={label}
        options={options}
        selected={ids(values[name])}
        invalid={!!errors[name]?.length}
      />
      {err(name)}
    </>
  );
  const input = (
    name: string,
    label: string,
    type: "date" | "text" | "number" = "text",
    extra: Record<string, string> = {},
  ) => (
    <div className="field">
      <label htmlFor={`f-${name}`}>{label}</label>
      <input
        id={`f-${name}`}
        name={name}
        defaultValue={type === "date" ? isoDayToDisplay(values[name] ?? "") : (values[name] ?? "")}
        aria-invalid={errors[name] ? true : undefined}
        {...(type === "date" ? DAY_INPUT_PROPS : { type })}
        {...extra}
      />
      {err(name)}
    </div>
  );
  return (
    <Form method="get" className="filter-panel" data-testid="filter-panel">
      <fieldset>
        <legend>{t("filters.dates")}</legend>
        <div className="filter-grid">
          {input("taken_at_start", t("filters.takenFrom"), "date")}
          {input("taken_at_end", t("filters.takenTo"), "date")}
          {timber ? input("measured_at_start", t("filters.measuredFrom"), "date") : null}
          {timber ? input("measured_at_end", t("filters.measuredTo"), "date") : null}
          {input("created_at_start", t("filters.createdFrom"), "date")}
          {input("created_at_end", t("filters.createdTo"), "date")}
        </div>
      </fieldset>
      <fieldset>
        <legend>{t("filters.what")}</legend>
        <div className="filter-grid">
          {multi("storage_ids", t("filters.storages"), lookups.storages)}
          {multi(
            "storage_state_ids",
            t("filters.storageStates"),
            [1, 2, 3, 4, 5, 6].map((id) => ({ id, name: storageStateName(t, id) })),
          )}
          {multi(
            "measurement_type_ids",
            t("filters.measurementTypes"),
            [0, 1, 2, 3].map((id) => ({ id, name: measurementTypeName(t, id) })),
          )}
          {timber ? multi("wood_type_ids", t("filters.woodTypes"), lookups.woodTypes) : null}
          {timber ? multi("wood_quality_ids", t("filters.woodQualities"), lookups.woodQualities) : null}
          {timber ? multi("wood_characteristic_ids", t("filters.assortments"), lookups.assortments) : null}
          {lookups.lumberProducts
            ? multi("lumber_product_ids", t("lumber:filters.products"), lookups.lumberProducts)
            : null}
          {multi("device_ids", t("filters.devices"), lookups.devices)}
          {input("measurement_ids", t("filters.measurementIds"), "text", {
            placeholder: "101, 102",
            inputMode: "numeric",
            pattern: "\\s*\\d+(\\s*,\\s*\\d+)*\\s*",
          })}
          {timber ? input("shipment_number", t("filters.shipmentNumber")) : null}
          {input("volume_range_start", t("filters.minVolume"), "number", { step: "any", min: "0" })}
          {input("volume_range_end", t("filters.maxVolume"), "number", { step: "any", min: "0" })}
          {timber ? input("length_range_start", t("filters.minLength"), "number", { step: "any", min: "0" }) : null}
          {timber ? input("length_range_end", t("filters.maxLength"), "number", { step: "any", min: "0" }) : null}
        </div>
      </fieldset>
      {lookups.customFields.length ? (
        <fieldset>
          <legend>{t("filters.customFields")}</legend>
          <div className="filter-grid">
            {lookups.customFields.map((f) => {
              const name = `custom_fields[${f.key}]`;
              const id = `f-cf-${f.key}`;
              return (
                <div className="field" key={f.id}>
                  <label htmlFor={id}>{f.name}</label>
                  {f.data_type === "boolean" ? (
                    <select id={id} name={name} defaultValue={values[name] ?? ""}>
                      <option value="">{t("filters.any")}</option>
                      <option value="true">{t("yes")}</option>
                      <option value="false">{t("no")}</option>
                    </select>
                  ) : f.values.length ? (
                    <select id={id} name={name} defaultValue={values[name] ?? ""}>
                      <option value="">{t("filters.any")}</option>
                      {f.values.map((v) => (
                        <option key={v} value={v}>
                          {v}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <input
                      id={id}
                      name={name}
                      defaultValue={values[name] ?? ""}
                      type={
                        f.data_type === "integer" || f.data_type === "decimal"
                          ? "number"
                          : f.data_type === "date"
                            ? "date"
                            : f.data_type === "datetime"
                              ? "datetime-local"
                              : "text"
                      }
                      step={f.data_type === "integer" ? "1" : f.data_type === "decimal" ? "any" : undefined}
                      inputMode={
                        f.data_type === "integer" ? "numeric" : f.data_type === "decimal" ? "decimal" : undefined
                      }
                    />
                  )}
                </div>
              );
            })}
          </div>
        </fieldset>
      ) : null}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" data-testid="apply-filters">
          {t("filters.apply")}
        </button>
        <a className="btn btn-ghost" href="?">
          {t("filters.reset")}
        </a>
      </div>
    </Form>
  );
}
