import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { MeasurementDetailFrame } from "~/components/measurements/detail-frame";
import { MeasurementTrust } from "~/components/measurements/trust-panels";
import {
  getContainerLogs,
  getContainerMeasurementRow,
  getContainerReferences,
  listContainerCustomFields,
  patchContainerMeasurement,
} from "~/models/container-measurement.server";
import { getContainer } from "~/models/container.server";
import { canEditIn } from "~/models/measurement-kind.server";
import { screenPhotoUrl } from "~/models/measurement-photo.server";
import { loadMeasurementTrust } from "~/services/measurement-trust.server";
import { parseId } from "~/utils/api.server";
import { requireAppUser, requireFeature } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { errorResponse, notFound, unknownIntent, ValidationError } from "~/utils/errors";
import { ContainerCommentFormSchema } from "~/utils/schemas/containers";
import { redirectWithToast } from "~/utils/toast.server";
import { formatsFor } from "~/utils/use-format";
import { CONTAINER_SCREEN_FEATURE } from "./__containers.server";

// One container measurement (docs/decisions/022-containers.md): details, comment, the container's
// seal number, width and height, the photo with its logs drawn over it, the references (stored in
// metres, shown in cm), device and custom fields (required ones block saving). Locked (the
// container was sealed): the logs cannot change, and the page says so; comment, custom fields and
// unlocking stay possible. Plain forms: it works without JavaScript.

export const handle = { i18n: ["containers", "timber", "trust"] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  const id = parseId(params.id);
  const m = await getContainerMeasurementRow(db(), ctx, id);
  if (!m) notFound();
  requireFeature(ctx, CONTAINER_SCREEN_FEATURE);
  const [logs, references, fields, container, editable] = await Promise.all([
    getContainerLogs(db(), ctx, id),
    getContainerReferences(db(), ctx, id),
    listContainerCustomFields(db(), ctx),
    m.container_id ? getContainer(db(), ctx, m.container_id) : Promise.resolve(null),
    canEditIn(db(), ctx, m),
  ]);
  const trust = await loadMeasurementTrust(ctx, "container", id, new URL(request.url));
  return json({
    trust,
    m: {
      id: m.id,
      taken_at: m.taken_at,
      measured_at: m.measured_at,
      log_length: m.log_length,
      logs_count: m.logs_count,
      volume: m.volume,
      volume_formula: m.volume_formula,
      comment: m.comment,
      locked_at: m.locked_at,
      device_id: m.device_id,
      custom_fields: m.custom_fields as Record<string, unknown>,
      photo: screenPhotoUrl("container", m),
      photo_width: m.photo_width,
      photo_height: m.photo_height,
    },
    logs: logs.map((l) => ({
      id: l.id,
      x: l.x,
      y: l.y,
      r: l.r,
      d: l.d,
      jas_d: l.jas_d,
      v: l.v,
      deleted: Boolean(l.is_deleted),
    })),
    references,
    fields,
    container,
    editable,
    fmt: {
      locale: ctx.user.locale,
      timeZone: ctx.user.time_zone,
      precision: ctx.user.rounding_precision,
      unit: ctx.user.volume_unit,
    },
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireAppUser(request);
  const id = parseId(params.id);
  if (!(await getContainerMeasurementRow(db(), ctx, id))) notFound();
  requireFeature(ctx, CONTAINER_SCREEN_FEATURE);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const back = () =>
    redirectWithToast(`/measurements/container/${id}`, { type: "success", key: "containers:toast.saved" });
  try {
    switch (intent) {
      case "comment": {
        const submission = parseWithZod(form, { schema: ContainerCommentFormSchema });
        if (submission.status !== "success") return json({ intent, result: submission.reply() }, { status: 422 });
        await patchContainerMeasurement(db(), ctx, id, { comment: submission.value.comment || null });
        return back();
      }
      case "customFields": {
        const values: Record<string, string> = {};
        for (const [k, v] of form.entries()) if (k.startsWith("cf.")) values[k.slice(3)] = String(v);
        try {
          await patchContainerMeasurement(db(), ctx, id, { custom_fields: values });
        } catch (error) {
          if (error instanceof ValidationError) return json({ intent, errors: error.errors, values }, { status: 422 });
          throw error;
        }
        return back();
      }
      case "lock":
      case "unlock":
        await patchContainerMeasurement(db(), ctx, id, { locked_at: intent === "lock" ? new Date() : null });
        return back();
      default:
        unknownIntent();
    }
  } catch (error) {
    throw errorResponse(error) ?? error;
  }
}

type ActionData =
  | {
      intent: string;
      result?: SubmissionResult<string[]>;
      errors?: Record<string, string[]>;
      values?: Record<string, string>;
    }
  | undefined;

export default function ContainerMeasurementDetail() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const { t } = useTranslation(["containers", "timber"]);
  const f = formatsFor(data.fmt);
  const m = data.m;
  const locked = m.locked_at !== null;
  const [commentForm, commentFields] = useForm({
    id: "container-comment",
    lastResult: actionData?.intent === "comment" ? actionData.result : undefined,
    constraint: getZodConstraint(ContainerCommentFormSchema),
    defaultValue: { comment: m.comment ?? "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ContainerCommentFormSchema }),
  });
  const cfErrors = actionData?.intent === "customFields" ? (actionData.errors ?? {}) : {};
  const cfValues = actionData?.intent === "customFields" ? actionData.values : undefined;
  const w = m.photo_width ?? 1;
  const h = m.photo_height ?? 1;
  return (
    <MeasurementDetailFrame
      className="container-detail"
      title={t("detail.title", { id: m.id })}
      subtitle={f.dateTime(m.taken_at)}
      locked={false}
      editable={data.editable}
      actions={
        <>
          {m.photo && m.photo_width && m.photo_height ? (
            <Link className="btn btn-primary" to={`/measurements/container/${m.id}/edit`} data-testid="open-editor">
              {t(data.editable && !locked ? "detail.openEditor" : "detail.viewOnPhoto")}
            </Link>
          ) : null}{" "}
          <Link
            className="btn"
            to={
              m.locked_at || data.container
                ? `/measurements/container?container=${data.container?.id ?? ""}`
                : "/measurements/container"
            }
          >
            {t("detail.back")}
          </Link>
        </>
      }
    >
      {locked ? (
        <div className="alert alert-warning" role="note" data-testid="container-locked">
          {t("detail.locked", { at: f.dateTime(m.locked_at) })}
        </div>
      ) : null}
      <div className="detail-grid">
        <section className="card" aria-label={t("detail.details")}>
          <h2 className="card-title">{t("detail.details")}</h2>
          <dl className="info-list" data-testid="container-measurement-details">
            <dt>{t("detail.logs")}</dt>
            <dd data-testid="detail-logs">{f.count(m.logs_count)}</dd>
            <dt>{t("detail.volume")}</dt>
            <dd data-testid="detail-volume">{f.volume(m.volume)}</dd>
            <dt>{t("detail.logLength")}</dt>
            <dd>{m.log_length === null ? "–" : `${f.number(m.log_length, 2)} m`}</dd>
            <dt>{t("detail.formula")}</dt>
            <dd>JAS</dd>
            <dt>{t("detail.device")}</dt>
            <dd>{m.device_id ?? "–"}</dd>
            <dt>{t("detail.references")}</dt>
            <dd data-testid="detail-references">
              {data.references.length ? data.references.map((r) => `${f.number(r.size * 100, 1)} cm`).join(", ") : "–"}
            </dd>
          </dl>
        </section>
        <section className="card" aria-label={t("detail.container")}>
          <h2 className="card-title">{t("detail.container")}</h2>
          {data.container ? (
            <dl className="info-list" data-testid="container-info">
              <dt>{t("fields.name")}</dt>
              <dd>{data.container.name}</dd>
              <dt>{t("fields.seal_number")}</dt>
              <dd data-testid="container-seal">{data.container.seal_number ?? "–"}</dd>
              <dt>{t("detail.widthCm")}</dt>
              <dd data-testid="container-width">{cm(data.container.width, f)}</dd>
              <dt>{t("detail.heightCm")}</dt>
              <dd data-testid="container-height">{cm(data.container.height, f)}</dd>
            </dl>
          ) : (
            <p className="muted">{t("batch.noContainer")}</p>
          )}
        </section>
        <section className="card" aria-label={t("detail.photo")}>
          <h2 className="card-title">{t("detail.photo")}</h2>
          {m.photo ? (
            <div className="photo-overlay" style={{ position: "relative" }}>
              <img src={m.photo} alt={t("detail.photo")} style={{ width: "100%", display: "block" }} />
              <svg
                viewBox={`0 0 ${w} ${h}`}
                preserveAspectRatio="none"
                style={{ position: "absolute", inset: 0, width: "100%", height: "100%" }}
                aria-hidden="true"
                data-testid="logs-overlay"
              >
                {data.logs
                  .filter((l) => !l.deleted)
                  .map((l) => (
                    <circle
                      key={l.id}
                      cx={l.x}
                      cy={l.y}
                      r={l.r}
                      fill="none"
                      stroke="#2ecc40"
                      strokeWidth={Math.max(2, w / 400)}
                    />
                  ))}
              </svg>
            </div>
          ) : (
            <p className="muted">NO_PHOTO_ERROR</p>
          )}
        </section>
        <section className="card" aria-label={t("detail.comment")}>
          <h2 className="card-title">{t("detail.comment")}</h2>
          <Form method="post" {...getFormProps(commentForm)}>
            <input type="hidden" name="intent" value="comment" />
            <textarea
              {...getTextareaProps(commentFields.comment)}
              rows={3}
              disabled={!data.editable}
              data-testid="comment"
            />
            {commentFields.comment.errors ? (
              <span className="field-error">{commentFields.comment.errors.map((e) => t(e)).join(" ")}</span>
            ) : null}
            {data.editable ? (
              <button type="submit" className="btn btn-primary" data-testid="comment-save">
                {t("actions.save")}
              </button>
            ) : null}
          </Form>
        </section>
        {data.fields.length ? (
          <section className="card" aria-label={t("detail.customFields")}>
            <h2 className="card-title">{t("detail.customFields")}</h2>
            {Object.keys(cfErrors).length ? (
              <div className="alert alert-danger" role="alert" data-testid="custom-fields-missing">
                {t("detail.missingFields", {
                  names: data.fields
                    .filter((fd) => cfErrors[`custom_fields.${fd.key}`])
                    .map((fd) => fd.name)
                    .join(", "),
                })}
              </div>
            ) : null}
            <Form method="post" className="form-grid" data-testid="custom-fields-form">
              <input type="hidden" name="intent" value="customFields" />
              {data.fields.map((fd) => {
                const errs = cfErrors[`custom_fields.${fd.key}`];
                const stored = m.custom_fields[fd.key];
                return (
                  <label key={fd.id} className="field">
                    <span className="field-label">
                      {fd.name}
                      {fd.required ? " *" : ""}
                    </span>
                    <input
                      name={`cf.${fd.key}`}
                      defaultValue={
                        cfValues?.[fd.key] ?? (stored === null || stored === undefined ? "" : String(stored))
                      }
                      required={Boolean(fd.required)}
                      aria-invalid={errs ? true : undefined}
                      disabled={!data.editable}
                      data-testid={`cf-${fd.key}`}
                    />
                    {errs ? <span className="field-error">{errs.map((e) => t(e)).join(" ")}</span> : null}
                  </label>
                );
              })}
              {data.editable ? (
                <button type="submit" className="btn btn-primary" data-testid="custom-fields-save">
                  {t("actions.save")}
                </button>
              ) : null}
            </Form>
          </section>
        ) : null}
        <section className="card" aria-label={t("detail.logsTable")}>
          <h2 className="card-title">{t("detail.logsTable")}</h2>
          {data.editable ? (
            <Form method="post" className="form-actions">
              <button
                type="submit"
                name="intent"
                value={locked ? "unlock" : "lock"}
                className="btn"
                data-testid={locked ? "unlock" : "lock"}
              >
                {t(locked ? "batch.unlock" : "batch.lock")}
              </button>
            </Form>
          ) : null}
          <table className="table" data-testid="container-logs">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col" className="num">
                  {t("detail.diameter")}
                </th>
                <th scope="col" className="num">
                  {t("detail.jasDiameter")}
                </th>
                <th scope="col" className="num">
                  {t("detail.volume")}
                </th>
              </tr>
            </thead>
            <tbody>
              {data.logs
                .filter((l) => !l.deleted)
                .map((l, i) => (
                  <tr key={l.id}>
                    <td>{i + 1}</td>
                    <td className="num">{f.number(l.d, 1)}</td>
                    <td className="num">{f.number(l.jas_d, 0)}</td>
                    <td className="num">{f.number(l.v, 4)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </section>
      </div>
      <MeasurementTrust trust={data.trust} f={f} />
    </MeasurementDetailFrame>
  );
}

/** A container's free-text width or height: a number in metres is shown in cm, other text as typed. */
function cm(value: string | null, f: { number: (n: number, d: number) => string }) {
  if (!value) return "–";
  const n = Number(value.replace(",", ".").replace(/\s*m$/i, ""));
  if (!Number.isFinite(n)) return value;
  return `${f.number(n < 10 ? n * 100 : n, 0)} cm`;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
