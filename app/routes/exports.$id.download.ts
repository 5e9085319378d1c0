import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { getExport } from "~/models/export.server";
import { fileResponse, fileStorage } from "~/services/file-storage.server";
import { notFound, parseId } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { env } from "~/utils/env.server";

/** The file of a finished export, for members of the export's organisation only (else 404). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  const id = parseId(params.id);
  const row = await getExport(db(), ctx, id);
  if (!row || !row.file_key || (row.status !== 1 && row.status !== 2)) notFound();
  const downloadName = `${row.name}.${row.kind === "excel" ? "xlsx" : "pdf"}`;
  if (env().STORAGE_S3_SIGNED_DOWNLOADS) {
    // The browser fetches the file from the bucket itself, for five minutes.
    const url = await fileStorage().signedUrl(row.file_key, { expiresInSeconds: 300, downloadName });
    if (url) return redirect(url, { headers: { "Cache-Control": "private, no-store" } });
  }
  const response = await fileResponse(fileStorage(), row.file_key, {
    cacheControl: "private, no-store",
    downloadName,
  });
  if (!response) notFound();
  return response;
}
