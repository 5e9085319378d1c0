import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { allowedChannels, createAblyTokenRequest } from "~/services/realtime.server";
import { requireApiUser } from "~/utils/auth.server";
import { env } from "~/utils/env.server";

/** Ably token requests for the browser (only when Ably is configured). */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  if (!env().ABLY_API_KEY) throw json({ error: "not_found" }, { status: 404 });
  return json(await createAblyTokenRequest(`user-${ctx.userId}`, allowedChannels(ctx)));
}
