import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PublicLinkPanel } from "~/components/public-links/public-link-dialog";
import { StorageStateBadge } from "~/components/timber/storages-table";
import { Field } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select-field";
import { roundHalfUp } from "~/domain";
import { storageStateName } from "~/utils/lookup-name";
import type { PublicLinkScreen } from "~/utils/public-link-form.server";
import { StorageSchema } from "~/utils/schemas/timber";
import type { SerializeFrom } from "@remix-run/node";

type LoaderData = {
  storage: {
    id: number;
    name: string;
    latitude: number | null;
    longitude: number | null;
    storage_state_id: number;
    is_default: boolean;
  } | null;
  publicLink: SerializeFrom<PublicLinkScreen> | null;
};

/** The storage form of /storages/new and /storages/{id}: name, coordinates, state, public link, delete. */
export function StorageEditor() {
  const { storage, publicLink } = useLoaderData<LoaderData>();
  const lastResult = useActionData<SubmissionResult<string[]>>();
  const navigation = useNavigation();
  const { t } = useTranslation("timber");
  const [form, fields] = useForm({
    id: "storage",
    lastResult,
    constraint: getZodConstraint(StorageSchema),
    defaultValue: {
      name: storage?.name ?? "",
      latitude: coordinateInput(storage?.latitude),
      longitude: coordinateInput(storage?.longitude),
      storage_state_id: String(storage?.storage_state_id ?? 2),
    },
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: StorageSchema }),
  });
  const errors = (list: string[] | undefined) => list?.map((e) => t(e));
  const coordinate = (name: "latitude" | "longitude", limit: number) => (
    <Field
      label={t(`storage.${name}`)}
      inputProps={{
        ...getInputProps(fields[name], { type: "number" }),
        step: "0.000001",
        min: -limit,
        max: limit,
      }}
      errors={errors(fields[name].errors)}
    />
  );
  return (
    <div className="page narrow-page">
      <div className="page-header">
        <h1 className="page-title">
          {storage ? t("storage.editTitle", { name: storage.name }) : t("storage.newTitle")}
        </h1>
        <Link className="btn" to="/measurements/timber">
          {t("detail.back")}
        </Link>
      </div>
      <Form method="post" className="card form-grid" data-testid="storage-form" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="save" />
        <Field
          label={t("storage.name")}
          inputProps={getInputProps(fields.name, { type: "text" })}
          errors={errors(fields.name.errors)}
        />
        {coordinate("latitude", 90)}
        {coordinate("longitude", 180)}
        <SelectField
          label={t("storage.state")}
          selectProps={getSelectProps(fields.storage_state_id)}
          placeholder={false}
          options={[1, 2, 3, 4, 5, 6].map((id) => [id, storageStateName(t, id)])}
          errors={errors(fields.storage_state_id.errors)}
        />
        <div className="field-hint">
          <StorageStateBadge state={Number(fields.storage_state_id.value ?? storage?.storage_state_id ?? 2)} />
        </div>
        <button
          type="submit"
          className="btn btn-primary"
          disabled={navigation.state === "submitting"}
          data-testid="storage-save"
        >
          {t("detail.save")}
        </button>
      </Form>
      {storage ? (
        <>
          {publicLink ? (
            <section className="card" data-testid="storage-public-link">
              <h2 className="card-title">{t("storage.publicLink")}</h2>
              <PublicLinkPanel link={publicLink} kind="storage" />
            </section>
          ) : null}
          <section className="card danger-zone">
            <h2 className="card-title">{t("storage.deleteTitle")}</h2>
            {storage.is_default ? (
              <div className="alert alert-warning" role="note" data-testid="default-storage-warning">
                {t("menu.defaultNoDelete")}
              </div>
            ) : (
              <Form
                method="post"
                onSubmit={(e) => {
                  if (!window.confirm(t("menu.confirmDelete", { name: storage.name }))) e.preventDefault();
                }}
              >
                <input type="hidden" name="intent" value="delete" />
                <p className="muted">{t("storage.deleteText")}</p>
                <button type="submit" className="btn danger" data-testid="storage-delete">
                  {t("menu.delete")}
                </button>
              </Form>
            )}
          </section>
        </>
      ) : null}
    </div>
  );
}

/** A stored coordinate as the input's value: six decimals (the form's step), not the double's 15. */
function coordinateInput(value: string | number | null | undefined) {
  if (typeof value !== "number") return value ?? "";
  return String(roundHalfUp(value, 6));
}
