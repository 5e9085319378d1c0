import { json, type ActionFunctionArgs } from "@remix-run/node";
import { sendDeviceInvitation } from "~/services/account-mail.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { requireApiUser, requireOrgAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { InviteSchema } from "~/utils/schemas/admin";

/** POST /api/web_app/devices/send_invite {invite:{email}} -> {message: "Invitation sent"}. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const ctx = await requireApiUser(request);
  requireOrgAdmin(ctx);
  const { invite } = await parseBody(request, InviteSchema);
  await sendDeviceInvitation(
    db(),
    { ...ctx, organizationName: ctx.organization.name, locale: ctx.user.locale },
    invite.email,
  );
  return json({ message: "Invitation sent" }, { status: 201 });
}

export function loader() {
  return methodNotAllowed();
}
