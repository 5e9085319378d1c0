import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { Field } from "~/components/ui/field";
import {
  deleteDevice,
  DeviceAccessError,
  getDevice,
  isNewDevice,
  renameDevice,
  setDeviceAccess,
} from "~/models/device-admin.server";
import { listStorages } from "~/models/lookup.server";
import { parseId } from "~/utils/api.server";
import { requireAppAdmin, requireFeature } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { notFound, unknownIntent } from "~/utils/errors";
import { DeviceDetailsSchema } from "~/utils/schemas/device";
import { redirectWithToast } from "~/utils/toast.server";
import { useHydrated } from "~/utils/use-hydrated";

export const handle = { i18n: ["accounts"] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const id = /^\d{1,18}$/.test(params.id ?? "") ? Number(params.id) : null;
  const device = id ? await getDevice(db(), ctx, id) : undefined;
  // The spec: a device not found shows a warning with the device ID (not the generic 404 screen).
  if (!device)
    return json({ notFound: params.id ?? "", device: null, storages: [], accessFeature: false }, { status: 404 });
  const storages = await listStorages(db(), ctx);
  return json({
    notFound: null,
    device: {
      id: device.id,
      name: device.name,
      affiliation: device.affiliation ?? "",
      hwId: device.hw_id,
      locked: device.locked,
      isNew: isNewDevice(device.created_at),
      userEmail: device.user_email,
      storageIds: device.storage_ids,
      defaultStorageId: device.default_storage_id,
    },
    storages: storages.map((s) => ({ id: s.id, name: s.name })),
    accessFeature: ctx.features.includes("storage_access_management"),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const id = parseId(params.id);
  const form = await request.formData();
  switch (form.get("intent")) {
    case "rename": {
      const submission = parseWithZod(form, { schema: DeviceDetailsSchema });
      if (submission.status !== "success") return json({ result: submission.reply() }, { status: 422 });
      const { name, affiliation } = submission.value;
      if (!(await renameDevice(db(), ctx, id, { name, affiliation: affiliation ?? null }))) notFound();
      return redirectWithToast(`/devices/${id}`, { type: "success", key: "accounts:devices.saved" });
    }
    case "access": {
      const custom = form.get("mode") === "custom";
      if (custom) requireFeature(ctx, "storage_access_management");
      const storageIds = custom ? form.getAll("storage_ids").map(Number).filter(Number.isInteger) : null;
      if (custom && storageIds!.length === 0)
        return json(
          { errors: { storage_ids: ["accounts:devices.invalid.storage_ids"] } as Record<string, string[]> },
          { status: 422 },
        );
      const def = Number(form.get("default_storage_id")) || null;
      try {
        if (!(await setDeviceAccess(db(), ctx, id, { storage_ids: storageIds, default_storage_id: def }))) notFound();
      } catch (error) {
        if (!(error instanceof DeviceAccessError)) throw error;
        return json(
          { errors: { [error.field]: [`accounts:devices.invalid.${error.field}`] } as Record<string, string[]> },
          { status: 422 },
        );
      }
      return redirectWithToast(`/devices/${id}`, { type: "success", key: "accounts:devices.saved" });
    }
    case "delete":
      if (!(await deleteDevice(db(), ctx, id))) notFound();
      return redirectWithToast("/devices", { type: "success", key: "accounts:devices.deleted" });
    default:
      unknownIntent();
  }
}

export default function DeviceEditPage() {
  const { t } = useTranslation("accounts");
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const errors: Record<string, string[]> = (result && "errors" in result ? result.errors : {}) ?? {};
  const lastResult = result && "result" in result ? result.result : undefined;
  if (!data.device) {
    return (
      <div className="page page-narrow">
        <div className="alert alert-warning" role="alert" data-testid="device-not-found">
          {t("devices.notFound", { id: data.notFound })}
        </div>
        <Link to="/devices" className="btn">
          {t("devices.backToList")}
        </Link>
      </div>
    );
  }
  return (
    <DeviceEditor
      key={data.device.id}
      data={{ ...data, device: data.device }}
      errors={errors}
      lastResult={lastResult}
    />
  );
}

type Loaded = ReturnType<typeof useLoaderData<typeof loader>>;

function DeviceEditor({
  data,
  errors,
  lastResult,
}: {
  data: Loaded & { device: NonNullable<Loaded["device"]> };
  errors: Record<string, string[]>;
  /** The details form's refused submission (conform's reply: its errors and what was typed). */
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("accounts");
  const { device, storages, accessFeature } = data;
  const hydrated = useHydrated();
  const [form, fields] = useForm({
    id: "device-details",
    lastResult,
    defaultValue: { name: device.name, affiliation: device.affiliation },
    constraint: getZodConstraint(DeviceDetailsSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: DeviceDetailsSchema }),
  });
  const [name, setName] = useState(fields.name.initialValue ?? "");
  const [affiliation, setAffiliation] = useState(fields.affiliation.initialValue ?? "");
  const [custom, setCustom] = useState(device.storageIds !== null);
  const [chosen, setChosen] = useState<number[]>(device.storageIds ?? []);
  const [def, setDef] = useState<number | null>(device.defaultStorageId);
  const nameChanged = name !== device.name || affiliation !== device.affiliation;
  const accessChanged =
    custom !== (device.storageIds !== null) ||
    (custom && [...chosen].sort().join() !== [...(device.storageIds ?? [])].sort().join()) ||
    def !== device.defaultStorageId;
  const defaultChoices = custom ? storages.filter((s) => chosen.includes(s.id)) : storages;
  const err = (k: string) => errors[k]?.map((e) => t(e));
  return (
    <div className="page page-narrow">
      <p>
        <Link to="/devices">← {t("devices.title")}</Link>
      </p>
      <h1 className="page-title">
        {device.name}{" "}
        {device.isNew ? (
          <span className="badge badge-success" data-testid="new-badge">
            {t("devices.new")}
          </span>
        ) : null}
      </h1>
      {device.locked ? (
        <div className="alert alert-warning" role="alert" data-testid="device-locked">
          {t("devices.lockedWarning")}
        </div>
      ) : null}
      <p className="muted">
        {t("devices.hwId")}: {device.hwId}
        {device.userEmail ? ` · ${device.userEmail}` : ""}
      </p>

      <Form method="POST" className="card" data-testid="device-details" {...getFormProps(form)}>
        <h2>{t("devices.details")}</h2>
        <input type="hidden" name="intent" value="rename" />
        <Field
          label={t("devices.name")}
          inputProps={{
            ...getInputProps(fields.name, { type: "text", value: false }),
            value: name,
            onChange: (e) => setName(e.target.value),
          }}
          errors={fields.name.errors?.map((e) => t(e))}
        />
        <Field
          label={t("devices.affiliation")}
          inputProps={{
            ...getInputProps(fields.affiliation, { type: "text", value: false }),
            value: affiliation,
            onChange: (e) => setAffiliation(e.target.value),
          }}
          errors={fields.affiliation.errors?.map((e) => t(e))}
        />
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={hydrated && !nameChanged}>
            {t("common.save")}
          </button>
        </div>
      </Form>

      <Form method="POST" className="card" data-testid="device-access">
        <h2>{t("devices.access")}</h2>
        <input type="hidden" name="intent" value="access" />
        <label className="checkbox">
          <input type="radio" name="mode" value="all" checked={!custom} onChange={() => setCustom(false)} />{" "}
          {t("devices.allStorages")}
        </label>
        <label className="checkbox">
          <input
            type="radio"
            name="mode"
            value="custom"
            checked={custom}
            disabled={!accessFeature}
            onChange={() => setCustom(true)}
          />{" "}
          {t("devices.customStorages")}
          {!accessFeature ? (
            <span className="badge" title={t("devices.accessFeature")}>
              🔒
            </span>
          ) : null}
        </label>
        {!accessFeature ? <p className="field-hint">{t("devices.accessFeature")}</p> : null}
        {accessFeature && (custom || !hydrated) ? (
          <fieldset className="checkbox-group storage-picks">
            <legend>{t("devices.storages")}</legend>
            {storages.map((s) => (
              <label key={s.id}>
                <input
                  type="checkbox"
                  name="storage_ids"
                  value={s.id}
                  checked={chosen.includes(s.id)}
                  onChange={(e) => {
                    const next = e.target.checked ? [...chosen, s.id] : chosen.filter((c) => c !== s.id);
                    setChosen(next);
                    if (def !== null && !next.includes(def)) setDef(null);
                  }}
                />{" "}
                {s.name}
              </label>
            ))}
            {err("storage_ids") ? (
              <ul className="field-errors">
                {err("storage_ids")!.map((e) => (
                  <li key={e}>{e}</li>
                ))}
              </ul>
            ) : null}
          </fieldset>
        ) : null}
        <div className="field">
          <label htmlFor="default_storage_id">{t("devices.defaultStorage")}</label>
          <select
            id="default_storage_id"
            name="default_storage_id"
            value={def ?? ""}
            onChange={(e) => setDef(e.target.value ? Number(e.target.value) : null)}
          >
            <option value="">{t("devices.noDefault")}</option>
            {defaultChoices.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
          {err("default_storage_id") ? (
            <ul className="field-errors">
              {err("default_storage_id")!.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          ) : null}
        </div>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={hydrated && !accessChanged}>
            {t("common.save")}
          </button>
        </div>
      </Form>

      <details className="card danger-zone">
        <summary>{t("devices.delete")}</summary>
        <p>{t("devices.deleteConfirm", { name: device.name })}</p>
        <Form method="POST">
          <input type="hidden" name="intent" value="delete" />
          <button type="submit" className="btn btn-danger">
            {t("devices.deleteSubmit")}
          </button>
        </Form>
      </details>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
