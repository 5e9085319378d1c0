import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { logout } from "~/utils/session.server";

export async function loader() {
  return redirect("/");
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await request
    .clone()
    .formData()
    .catch(() => null);
  // The idle logout says why on the sign-in page.
  return logout(request, form?.get("reason") === "idle" ? "/login?idle=1" : "/login");
}
