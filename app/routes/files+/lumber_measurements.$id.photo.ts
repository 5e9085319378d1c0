import { measurementPhotoResponse } from "~/utils/photo-file.server";
import type { LoaderFunctionArgs } from "@remix-run/node";

/** A lumber measurement's original photo: the URL the lumber API answers as `photo`. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return measurementPhotoResponse(request, "lumber", { id: params.id, variant: "original" });
}
