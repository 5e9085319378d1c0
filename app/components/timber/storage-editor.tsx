import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { StorageStateBadge } from "./storages-table";

type LoaderData = {
  storage: { id: number; name: string; latitude: number | null; longitude: number | null; storage_state_id: number; token: string | null; is_default: boolean } | null;
  origin: string;
};

/** The storage form of /storages/new and /storages/{id}: name, coordinates, state, public link, delete. */
export function StorageEditor() {
  const { storage, origin } = useLoaderData<LoaderData>();
  const actionData = useActionData<{ errors: Record<string, string[]> }>();
  const navigation = useNavigation();
  const { t } = useTranslation("timber");
  const [state, setState] = useState(storage?.storage_state_id ?? 2);
  const [copied, setCopied] = useState(false);
  const errors = actionData?.errors ?? {};
  const field = (name: "name" | "latitude" | "longitude", type: string, extra: Record<string, string> = {}) => (
    <div className="field">
      <label htmlFor={`storage-${name}`}>{t(`storage.${name}`)}</label>
      <input
        id={`storage-${name}`}
        name={name}
        type={type}
        defaultValue={storage?.[name] ?? ""}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `storage-${name}-error` : undefined}
        {...extra}
      />
      {errors[name] ? (
        <ul className="field-errors" id={`storage-${name}-error`}>
          {errors[name].map((e) => (
            <li key={e}>{t(e)}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
  const link = storage?.token ? `${origin}/public_storage/${storage.token}` : null;
  return (
    <div className="page narrow-page">
      <div className="page-header">
        <h1 className="page-title">{storage ? t("storage.editTitle", { name: storage.name }) : t("storage.newTitle")}</h1>
        <Link className="btn" to="/measurements/timber">
          {t("detail.back")}
        </Link>
      </div>
      <Form method="post" className="card form-grid" data-testid="storage-form">
        <input type="hidden" name="intent" value="save" />
        {field("name", "text", { required: "required", maxLength: "255" })}
        {field("latitude", "number", { step: "0.000001", min: "-90", max: "90" })}
        {field("longitude", "number", { step: "0.000001", min: "-180", max: "180" })}
        <div className="field">
          <label htmlFor="storage-state">{t("storage.state")}</label>
          <select id="storage-state" name="storage_state_id" value={state} onChange={(e) => setState(Number(e.target.value))}>
            {[1, 2, 3, 4, 5, 6].map((id) => (
              <option key={id} value={id}>
                {t(`states.${id}`)}
              </option>
            ))}
          </select>
          <div className="field-hint">
            <StorageStateBadge state={state} />
          </div>
          {errors.storage_state_id ? (
            <ul className="field-errors">
              {errors.storage_state_id.map((e) => (
                <li key={e}>{t(e)}</li>
              ))}
            </ul>
          ) : null}
        </div>
        <button type="submit" className="btn btn-primary" disabled={navigation.state === "submitting"} data-testid="storage-save">
          {t("detail.save")}
        </button>
      </Form>
      {storage ? (
        <>
          <section className="card">
            <h2 className="card-title">{t("storage.publicLink")}</h2>
            {link ? (
              <div className="inline-form">
                <input readOnly value={link} aria-label={t("storage.publicLink")} className="link-field" data-testid="public-link" />
                <button
                  type="button"
                  className="btn"
                  onClick={async () => {
                    await navigator.clipboard?.writeText(link);
                    setCopied(true);
                    setTimeout(() => setCopied(false), 2000);
                  }}
                >
                  {copied ? t("menu.copied") : t("menu.copyLink")}
                </button>
              </div>
            ) : (
              <Form method="post">
                <input type="hidden" name="intent" value="create-link" />
                <button type="submit" className="btn">
                  {t("menu.createLink")}
                </button>
              </Form>
            )}
          </section>
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
