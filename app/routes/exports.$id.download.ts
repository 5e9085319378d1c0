import { getExport } from "~/models/export.server";
import { fileResponse, fileStorage } from "~/services/file-storage.server";
import { notFound, parseId } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import type { LoaderFunctionArgs } from "@remix-run/node";

/** The file of a finished export, for members of the export's organisation only (else 404). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  const id = parseId(params.id);
  const row = await getExport(db(), ctx, id);
  if (!row || !row.file_key || (row.status !== 1 && row.status !== 2)) notFound();
  const response = await fileResponse(fileStorage(), row.file_key, {
    cacheControl: "private, no-store",
    downloadName: `${row.name}.${row.kind === "excel" ? "xlsx" : "pdf"}`,
  });
  if (!response) notFound();
  return response;
}
