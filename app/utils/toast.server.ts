import { createCookie, redirect } from "@remix-run/node";
import { z } from "zod";

// A toast travels in a short-lived cookie set on redirect, so it also works without JavaScript.
export const ToastSchema = z.object({
  type: z.enum(["success", "error", "info", "warning"]).default("info"),
  // A translation key (with optional values) rather than text, so it shows in the reader's language.
  key: z.string(),
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type Toast = z.infer<typeof ToastSchema>;

const toastCookie = createCookie("toast", { path: "/", httpOnly: true, sameSite: "lax", maxAge: 60 });

export async function toastHeader(toast: z.input<typeof ToastSchema>) {
  return toastCookie.serialize(ToastSchema.parse(toast));
}

export async function redirectWithToast(url: string, toast: z.input<typeof ToastSchema>, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await toastHeader(toast));
  return redirect(url, { ...init, headers });
}

/** Reads and clears the toast: the header must be sent with the response. */
export async function popToast(request: Request): Promise<{ toast: Toast | null; headers: HeadersInit | null }> {
  const raw = await toastCookie.parse(request.headers.get("Cookie"));
  if (!raw) return { toast: null, headers: null };
  const parsed = ToastSchema.safeParse(raw);
  return {
    toast: parsed.success ? parsed.data : null,
    headers: { "Set-Cookie": await toastCookie.serialize("", { maxAge: 0 }) },
  };
}
