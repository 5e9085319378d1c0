import type { LoaderFunctionArgs } from "@remix-run/node";
import { getExport } from "~/models/export.server";
import { fileStorage, toWebStream } from "~/services/file-storage.server";
import { notFound, parseId } from "~/utils/api.server";
import { requireApiUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";

const TYPES = {
  excel: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pdf: "application/pdf",
} as const;

/** The file of a finished export, for members of the export's organisation only (else 404). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  const id = parseId(params.id);
  const row = await getExport(db(), ctx, id);
  if (!row || !row.file_key || (row.status !== 1 && row.status !== 2)) notFound();
  const stat = await fileStorage().stat(row.file_key);
  if (!stat) notFound();
  const ext = row.kind === "excel" ? "xlsx" : "pdf";
  const ascii = `${row.name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_")}.${ext}`;
  return new Response(toWebStream(await fileStorage().stream(row.file_key)), {
    headers: {
      "Content-Type": TYPES[row.kind],
      "Content-Length": String(stat.size),
      "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(`${row.name}.${ext}`)}`,
      "Cache-Control": "private, no-store",
    },
  });
}
