import { createCookie, redirect, type ActionFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/utils/auth.server";
import { safeRedirect } from "~/utils/safe-redirect";

// The shell's billing banners are dismissed for the rest of the day (a cookie, so the plain form
// works without JavaScript).
export const dismissedBanners = createCookie("dismissed_banners", {
  path: "/",
  httpOnly: true,
  sameSite: "lax",
  maxAge: 24 * 3600,
});
const BANNERS = ["pending", "noPlan"];

export async function readDismissed(request: Request): Promise<string[]> {
  const value = await dismissedBanners.parse(request.headers.get("Cookie"));
  return Array.isArray(value) ? value.filter((v) => BANNERS.includes(v)) : [];
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const form = await request.formData();
  const banner = String(form.get("banner") ?? "");
  const current = await readDismissed(request);
  const next = BANNERS.includes(banner) ? [...new Set([...current, banner])] : current;
  return redirect(safeRedirect(form.get("redirectTo")), {
    headers: { "Set-Cookie": await dismissedBanners.serialize(next) },
  });
}

export function loader() {
  return redirect("/");
}
