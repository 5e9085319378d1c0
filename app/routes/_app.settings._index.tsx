import { redirect } from "@remix-run/node";

// Bare /settings opens the account tab.
export function loader() {
  return redirect("/settings/account");
}
