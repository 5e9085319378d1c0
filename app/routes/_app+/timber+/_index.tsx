import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAppAdmin } from "~/utils/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAppAdmin(request);
  return redirect("/timber/species");
}
