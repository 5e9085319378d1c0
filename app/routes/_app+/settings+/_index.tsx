import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAppUser } from "~/utils/auth.server";

// Bare /settings opens the account tab.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAppUser(request);
  return redirect("/settings/account");
}
