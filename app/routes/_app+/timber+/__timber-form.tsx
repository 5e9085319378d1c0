import {
  getFormProps,
  getInputProps,
  getSelectProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select-field";
import {
  ASSORTMENT_VOLUME_UNITS,
  rangesConflict,
  TIMBER_FORM_SCHEMAS,
  type TimberFormKind,
} from "~/utils/schemas/master-data";
import { useHydrated } from "~/utils/use-hydrated";

type Option = { id: number; name: string; min?: number | null; max?: number | null };
export type TimberFormProps = {
  kind: string;
  record: Record<string, unknown> | null;
  /** The refused submission (conform's reply: field errors and what was typed). */
  lastResult?: SubmissionResult<string[]>;
  options: Record<string, Option[]>;
  features: string[];
  disabled: boolean;
  isNew: boolean;
};
type Fields = Record<string, FieldMetadata<unknown, Record<string, unknown>, string[]>>;

/** The create/edit form of a /timber kind (one component for all six, fields by kind; one schema each). */
export function TimberForm({ kind, record, lastResult, options, features, disabled, isNew }: TimberFormProps) {
  const { t } = useTranslation("accounts");
  const schema = TIMBER_FORM_SCHEMAS[kind as TimberFormKind];
  const [form, conformFields] = useForm<Record<string, unknown>, Record<string, unknown>, string[]>({
    id: `timber-${kind}`,
    lastResult,
    defaultValue: { ...(kind === "assortments" ? { volume_unit: "m^3", price_basis: "volume" } : {}), ...record },
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const fields = conformFields as unknown as Fields;
  const err = (k: string) => fields[k].errors?.map((e) => t(e));
  const text = (k: string, type: "text" | "number" = "text", extra: Record<string, unknown> = {}) => (
    <Field
      key={k}
      label={t(`timber.columns.${k}`)}
      inputProps={{ ...getInputProps(fields[k], { type }), disabled, ...extra }}
      errors={err(k)}
    />
  );
  const number = (k: string, extra: Record<string, unknown> = {}) =>
    text(k, "number", { step: "any", min: 0, ...extra });
  // The spec: editing is disabled while nothing changed (with JavaScript; the server accepts either way).
  const hydrated = useHydrated();
  const [dirty, setDirty] = useState(false);
  return (
    <Form
      method="POST"
      className="card"
      data-testid="timber-form"
      {...getFormProps(form)}
      onChange={() => setDirty(true)}
    >
      <input type="hidden" name="intent" value="save" />
      {kind === "species" || kind === "qualities" ? text("name") : null}
      {kind === "culls" ? (
        <>
          {text("reason")}
          <div className="grid-2">
            {number("min")}
            {number("max")}
          </div>
        </>
      ) : null}
      {kind === "lumber_products" ? (
        <>
          {text("name")}
          <div className="grid-2">
            {number("plank_length", { min: 0.001 })}
            {number("plank_width", { min: 0.001 })}
            {number("plank_height", { min: 0.001 })}
          </div>
          <p className="field-hint">{t("timber.plankHint")}</p>
        </>
      ) : null}
      {kind === "assortments" ? (
        <AssortmentFields
          fields={fields}
          options={options}
          features={features}
          disabled={disabled}
          text={text}
          number={number}
        />
      ) : null}
      {kind === "diameter_profiles" ? <ProfileFields fields={fields} options={options} text={text} /> : null}
      {!isNew && kind !== "lumber_products" ? (
        <label className="checkbox">
          <input {...getInputProps(fields.archived, { type: "checkbox" })} disabled={disabled} /> {t("common.archived")}
        </label>
      ) : null}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={disabled || (hydrated && !isNew && !dirty)}>
          {isNew ? t("timber.create") : t("common.save")}
        </button>
      </div>
    </Form>
  );
}

function AssortmentFields({
  fields,
  options,
  features,
  disabled,
  text,
  number,
}: {
  fields: Fields;
  options: Record<string, Option[]>;
  features: string[];
  disabled: boolean;
  text: (k: string, type?: "text" | "number", extra?: Record<string, unknown>) => JSX.Element;
  number: (k: string, extra?: Record<string, unknown>) => JSX.Element;
}) {
  const { t } = useTranslation("accounts");
  const err = (k: string) => fields[k].errors?.map((e) => t(e));
  const [basis, setBasis] = useState(String(fields.price_basis.initialValue ?? "volume"));
  return (
    <>
      {text("name")}
      <div className="grid-2">
        <SelectField
          label={t("timber.columns.species")}
          selectProps={{ ...getSelectProps(fields.wood_type_id), disabled }}
          options={(options.wood_type_id ?? []).map((o) => [o.id, o.name])}
          errors={err("wood_type_id")}
        />
        <SelectField
          label={t("timber.columns.quality")}
          selectProps={{ ...getSelectProps(fields.wood_quality_id), disabled }}
          options={(options.wood_quality_id ?? []).map((o) => [o.id, o.name])}
          errors={err("wood_quality_id")}
        />
        {number("log_length")}
        {number("diameter_percentage", { max: 99.999999 })}
        {/* Diameter bounds (cm) only with the minmax_assortments feature. */}
        {features.includes("minmax_assortments") ? (
          <>
            {number("min")}
            {number("max")}
          </>
        ) : null}
        {number("weight_density")}
        <SelectField
          label={t("timber.columns.volume_unit")}
          selectProps={{ ...getSelectProps(fields.volume_unit), disabled }}
          options={ASSORTMENT_VOLUME_UNITS.map((u) => [u, t(`units.${u}`)])}
          errors={err("volume_unit")}
        />
      </div>
      <fieldset className="checkbox-group">
        <legend>{t("timber.priceBasis")}</legend>
        <label>
          <input
            type="radio"
            name={fields.price_basis.name}
            value="volume"
            checked={basis === "volume"}
            onChange={() => setBasis("volume")}
            disabled={disabled}
          />{" "}
          {t("timber.perVolume")}
        </label>
        <label>
          <input
            type="radio"
            name={fields.price_basis.name}
            value="log"
            checked={basis === "log"}
            onChange={() => setBasis("log")}
            disabled={disabled}
          />{" "}
          {t("timber.perLog")}
        </label>
      </fieldset>
      {number("price")}
    </>
  );
}

function ProfileFields({
  fields,
  options,
  text,
}: {
  fields: Fields;
  options: Record<string, Option[]>;
  text: (k: string, type?: "text" | "number", extra?: Record<string, unknown>) => JSX.Element;
}) {
  const { t } = useTranslation("accounts");
  const err = (k: string) => fields[k].errors?.map((e) => t(e));
  const initial = fields.wood_characteristic_ids.initialValue;
  const [chosen, setChosen] = useState<number[]>(
    (Array.isArray(initial) ? initial : initial ? [initial] : []).map(Number),
  );
  const all = options.wood_characteristic_ids ?? [];
  // Offered: both bounds set, and no overlap (or shared bound) with an already chosen one.
  const offered = all.filter((o) => o.min != null && o.max != null);
  const blocked = (o: Option) =>
    !chosen.includes(o.id) &&
    chosen.some((c) => {
      const other = all.find((a) => a.id === c);
      return other ? rangesConflict(o, other) : false;
    });
  return (
    <>
      {text("name")}
      <SelectField
        label={t("timber.columns.default_cull_id")}
        selectProps={getSelectProps(fields.default_cull_id)}
        options={(options.default_cull_id ?? []).map((o) => [o.id, o.name])}
        errors={err("default_cull_id")}
      />
      <fieldset className="checkbox-group storage-picks" data-testid="profile-assortments">
        <legend>{t("timber.columns.wood_characteristic_ids")}</legend>
        {offered.length === 0 ? <p className="muted">{t("timber.noBoundedAssortments")}</p> : null}
        {offered.map((o) => (
          <label key={o.id} className={blocked(o) ? "muted" : undefined}>
            <input
              type="checkbox"
              name={fields.wood_characteristic_ids.name}
              value={o.id}
              checked={chosen.includes(o.id)}
              disabled={blocked(o)}
              onChange={(e) => setChosen(e.target.checked ? [...chosen, o.id] : chosen.filter((c) => c !== o.id))}
            />{" "}
            {o.name} ({o.min}–{o.max} cm)
          </label>
        ))}
        {err("wood_characteristic_ids") ? (
          <ul className="field-errors">
            {err("wood_characteristic_ids")!.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        ) : null}
      </fieldset>
    </>
  );
}
