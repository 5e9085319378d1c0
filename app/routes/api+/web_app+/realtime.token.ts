import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { allowedChannels, createAblyTokenRequest } from "~/services/realtime.server";
import { requireApiUser } from "~/utils/auth.server";
import { env } from "~/utils/env.server";
import { notFound } from "~/utils/errors";

/** Ably token requests for the browser (only when Ably is configured). */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireApiUser(request);
  if (!env().ABLY_API_KEY) notFound();
  return json(await createAblyTokenRequest(`user-${ctx.userId}`, allowedChannels(ctx)));
}
