import { kindOfFilesFolder } from "~/models/measurement-kind.server";
import { measurementPhotoResponse } from "~/utils/photo-file.server";
import type { LoaderFunctionArgs } from "@remix-run/node";

/** /files/measurements/{id}/thumbnail, /files/lumber_measurements/{id}/optimized...: a photo of any measurement kind. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return measurementPhotoResponse(request, kindOfFilesFolder(params.folder ?? ""), params);
}
