import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { listStorages } from "~/models/lookup.server";
import { ForbiddenError, TimberValidationError } from "~/models/measurement-kind.server";
import { fileStorage } from "~/services/file-storage.server";
import { addJob } from "~/services/jobs.server";
import { createMeasurementFromPhoto } from "~/services/measurement-uploads.server";
import { PHOTO_LIMITS, PhotoRejectedError } from "~/services/photos.server";
import { requireAppUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { redirectWithToast } from "~/utils/toast.server";

// Staff upload a stack photo into a storage from the browser; the new measurement opens on its
// detail page to be filled in. A plain multipart form (works without JavaScript).

export const handle = { i18n: ["timber"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  const storages = await listStorages(db(), ctx);
  const preset = Number(new URL(request.url).searchParams.get("storage_id")) || null;
  return json({
    storages: storages.map((s) => ({ id: s.id, name: s.name })),
    preset,
    maxMb: Math.round(PHOTO_LIMITS.maxBytes / 1024 / 1024),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireAppUser(request);
  if (Number(request.headers.get("Content-Length") ?? 0) > PHOTO_LIMITS.maxBytes + 1024 * 1024) {
    return json({ errors: { photo: ["timber:errors.photo.too_large"] } }, { status: 422 });
  }
  const form = await request.formData();
  const storageId = Number(form.get("storage_id"));
  const photo = form.get("photo");
  const errors: Record<string, string[]> = {};
  if (!storageId) errors.storage_id = ["timber:errors.required"];
  if (!(photo instanceof Blob) || photo.size === 0) errors.photo = ["timber:errors.photo.missing"];
  if (Object.keys(errors).length) return json({ errors }, { status: 422 });
  const file = photo as File;
  let id: number;
  try {
    id = await createMeasurementFromPhoto(db(), fileStorage(), addJob, ctx, {
      storageId,
      data: Buffer.from(await file.arrayBuffer()),
      fileName: file.name || "photo.jpg",
    });
  } catch (error) {
    if (error instanceof PhotoRejectedError)
      return json({ errors: { photo: [`timber:errors.photo.${error.reason}`] } }, { status: 422 });
    if (error instanceof TimberValidationError) return json({ errors: error.errors }, { status: 422 });
    if (error instanceof ForbiddenError)
      return json({ errors: { storage_id: ["timber:errors.storageNotAllowed"] } }, { status: 403 });
    throw error;
  }
  return redirectWithToast(`/measurements/timber/${id}`, { type: "success", key: "timber:upload.created" });
}

export default function UploadPhoto() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<{ errors: Record<string, string[]> }>();
  const navigation = useNavigation();
  const { t } = useTranslation("timber");
  const err = (name: string) =>
    actionData?.errors[name]?.length ? (
      <ul className="field-errors" id={`${name}-error`}>
        {actionData.errors[name].map((e) => (
          <li key={e}>{t(e)}</li>
        ))}
      </ul>
    ) : null;
  return (
    <div className="page narrow-page">
      <div className="page-header">
        <h1 className="page-title">{t("upload.title")}</h1>
        <Link className="btn" to="/measurements/timber">
          {t("detail.back")}
        </Link>
      </div>
      <Form method="post" encType="multipart/form-data" className="card form-grid" data-testid="upload-form">
        <div className="field">
          <label htmlFor="storage_id">{t("fields.storage")}</label>
          <select id="storage_id" name="storage_id" required defaultValue={data.preset ?? ""}>
            <option value="" disabled>
              {t("upload.chooseStorage")}
            </option>
            {data.storages.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
          {err("storage_id")}
        </div>
        <div className="field">
          <label htmlFor="photo">{t("upload.photo")}</label>
          <input
            id="photo"
            name="photo"
            type="file"
            accept="image/jpeg,image/png,image/webp"
            required
            aria-invalid={actionData?.errors.photo ? true : undefined}
          />
          <div className="field-hint">{t("upload.hint", { mb: data.maxMb })}</div>
          {err("photo")}
        </div>
        <button type="submit" className="btn btn-primary" disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? t("upload.uploading") : t("upload.submit")}
        </button>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
