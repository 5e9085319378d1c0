import { parseWithZod } from "@conform-to/zod/v4";
import { json } from "@remix-run/node";
import { DefaultStorageError, createStorage, deleteStorage, getStorage, updateStorage } from "~/models/storage.server";
import { requireAppAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { notFound, unknownIntent } from "~/utils/errors";
import { isPublicLinkIntent, publicLinkAction, publicLinkForScreen } from "~/utils/public-link-form.server";
import { StorageSchema } from "~/utils/schemas/timber";
import { redirectWithToast } from "~/utils/toast.server";

// The storage form's server side, shared by /storages/new and /storages/{id}.

export async function storageEditorLoader(request: Request, id: number | null) {
  const ctx = await requireAppAdmin(request);
  if (id === null) return json({ storage: null, publicLink: null });
  const storage = await getStorage(db(), ctx, id);
  if (!storage) notFound();
  return json({
    storage: {
      id: storage.id,
      name: storage.name,
      latitude: storage.latitude,
      longitude: storage.longitude,
      storage_state_id: storage.storage_state_id,
      is_default: storage.is_default,
    },
    publicLink: await publicLinkForScreen(ctx, "storage", id, new URL(request.url).origin),
  });
}

export async function storageEditorAction(request: Request, id: number | null) {
  const ctx = await requireAppAdmin(request);
  if (id !== null && !(await getStorage(db(), ctx, id))) notFound();
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "save");
  if (id !== null && isPublicLinkIntent(intent)) return publicLinkAction(ctx, "storage", id, intent, `/storages/${id}`);
  switch (intent) {
    case "save": {
      // A decimal comma is what many users type in a coordinate.
      for (const k of ["latitude", "longitude"]) {
        const v = form.get(k);
        if (typeof v === "string") form.set(k, v.trim().replace(",", "."));
      }
      const submission = parseWithZod(form, { schema: StorageSchema });
      if (submission.status !== "success") return json(submission.reply(), { status: 422 });
      const parsed = { data: submission.value };
      // Six decimals (about 10 cm): what the spec keeps of a coordinate.
      const round6 = (v: number | undefined) => (v === undefined ? undefined : Math.round(v * 1e6) / 1e6);
      const values = {
        ...parsed.data,
        latitude: round6(parsed.data.latitude),
        longitude: round6(parsed.data.longitude),
      };
      if (id === null) {
        const newId = await createStorage(db(), ctx, values);
        return redirectWithToast(`/storages/${newId}`, { type: "success", key: "timber:storage.created" });
      }
      await updateStorage(db(), ctx, id, values);
      return redirectWithToast(`/storages/${id}`, { type: "success", key: "timber:storage.saved" });
    }
    case "delete": {
      if (id === null) break;
      try {
        await deleteStorage(db(), ctx, id);
      } catch (error) {
        if (error instanceof DefaultStorageError)
          return redirectWithToast(`/storages/${id}`, { type: "warning", key: "timber:menu.defaultNoDelete" });
        throw error;
      }
      return redirectWithToast("/measurements/timber", { type: "success", key: "timber:storage.deleted" });
    }
  }
  unknownIntent();
}
