import { Form } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select-field";
import { ASSORTMENT_VOLUME_UNITS, rangesConflict } from "~/utils/schemas/master-data";
import { useHydrated } from "~/utils/use-hydrated";

type Option = { id: number; name: string; min?: number | null; max?: number | null };
export type TimberFormProps = {
  kind: string;
  record: Record<string, unknown> | null;
  options: Record<string, Option[]>;
  errors: Record<string, string[]>;
  features: string[];
  disabled: boolean;
  isNew: boolean;
};

/** The create/edit form of a /timber kind (one component for all six, fields by kind). */
export function TimberForm({ kind, record, options, errors, features, disabled, isNew }: TimberFormProps) {
  const { t } = useTranslation("accounts");
  const r = record ?? {};
  const str = (k: string) => (r[k] === null || r[k] === undefined ? "" : String(r[k]));
  const err = (k: string) => errors[k]?.map((e) => t(e));
  const text = (k: string, type = "text", extra: Record<string, unknown> = {}) => (
    <Field
      key={k}
      label={t(`timber.columns.${k}`)}
      inputProps={{ name: k, id: k, type, defaultValue: str(k), disabled, ...extra }}
      errors={err(k)}
    />
  );
  const number = (k: string, extra: Record<string, unknown> = {}) =>
    text(k, "number", { step: "any", min: 0, ...extra });
  // The spec: editing is disabled while nothing changed (with JavaScript; the server accepts either way).
  const hydrated = useHydrated();
  const [dirty, setDirty] = useState(false);
  return (
    <Form method="POST" className="card" data-testid="timber-form" onChange={() => setDirty(true)}>
      <input type="hidden" name="intent" value="save" />
      {kind === "species" || kind === "qualities" ? text("name", "text", { required: true }) : null}
      {kind === "culls" ? (
        <>
          {text("reason", "text", { required: true })}
          <div className="grid-2">
            {number("min")}
            {number("max")}
          </div>
        </>
      ) : null}
      {kind === "lumber_products" ? (
        <>
          {text("name", "text", { required: true })}
          <div className="grid-2">
            {number("plank_length", { required: true, min: 0.001 })}
            {number("plank_width", { required: true, min: 0.001 })}
            {number("plank_height", { required: true, min: 0.001 })}
          </div>
          <p className="field-hint">{t("timber.plankHint")}</p>
        </>
      ) : null}
      {kind === "assortments" ? (
        <AssortmentFields
          r={r}
          options={options}
          errors={errors}
          features={features}
          disabled={disabled}
          text={text}
          number={number}
        />
      ) : null}
      {kind === "diameter_profiles" ? <ProfileFields r={r} options={options} errors={errors} text={text} /> : null}
      {!isNew && kind !== "lumber_products" ? (
        <label className="checkbox">
          <input type="checkbox" name="archived" defaultChecked={!!r.archived} disabled={disabled} />{" "}
          {t("common.archived")}
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
  r,
  options,
  errors,
  features,
  disabled,
  text,
  number,
}: {
  r: Record<string, unknown>;
  options: Record<string, Option[]>;
  errors: Record<string, string[]>;
  features: string[];
  disabled: boolean;
  text: (k: string, type?: string, extra?: Record<string, unknown>) => JSX.Element;
  number: (k: string, extra?: Record<string, unknown>) => JSX.Element;
}) {
  const { t } = useTranslation("accounts");
  const err = (k: string) => errors[k]?.map((e) => t(e));
  const [basis, setBasis] = useState(String(r.price_basis ?? "volume"));
  return (
    <>
      {text("name", "text", { required: true })}
      <div className="grid-2">
        <SelectField
          name="wood_type_id"
          label={t("timber.columns.species")}
          value={r.wood_type_id as number}
          options={(options.wood_type_id ?? []).map((o) => [o.id, o.name])}
          errors={err("wood_type_id")}
        />
        <SelectField
          name="wood_quality_id"
          label={t("timber.columns.quality")}
          value={r.wood_quality_id as number}
          required={false}
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
          name="volume_unit"
          label={t("timber.columns.volume_unit")}
          value={String(r.volume_unit ?? "m^3")}
          options={ASSORTMENT_VOLUME_UNITS.map((u) => [u, t(`units.${u}`)])}
        />
      </div>
      <fieldset className="checkbox-group">
        <legend>{t("timber.priceBasis")}</legend>
        <label>
          <input
            type="radio"
            name="price_basis"
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
            name="price_basis"
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
  r,
  options,
  errors,
  text,
}: {
  r: Record<string, unknown>;
  options: Record<string, Option[]>;
  errors: Record<string, string[]>;
  text: (k: string, type?: string, extra?: Record<string, unknown>) => JSX.Element;
}) {
  const { t } = useTranslation("accounts");
  const err = (k: string) => errors[k]?.map((e) => t(e));
  const [chosen, setChosen] = useState<number[]>((r.wood_characteristic_ids as number[]) ?? []);
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
      {text("name", "text", { required: true })}
      <SelectField
        name="default_cull_id"
        label={t("timber.columns.default_cull_id")}
        value={r.default_cull_id as number}
        required={false}
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
              name="wood_characteristic_ids"
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
