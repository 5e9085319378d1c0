import { createDeviceInvitation } from "~/models/device-admin.server";
import type { DB } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { i18nServer } from "~/utils/i18n.server";
import { sendMail } from "./mailer.server";

// The account e-mails (reset, verification, invitations), written in the recipient's language.
type Kind = "passwordReset" | "verification" | "invitation" | "membership" | "deviceInvitation";

export async function sendAccountMail(
  kind: Kind,
  to: string,
  locale: string,
  values: { link: string; organization?: string; code?: string },
) {
  const t = await i18nServer.getFixedT(locale, "accounts");
  const vars = { ...values, organization: values.organization ?? "", code: values.code ?? "" };
  return sendMail({
    to,
    subject: t(`mail.${kind}.subject`, vars),
    text: `${t(`mail.${kind}.body`, vars)}\n\n${values.link}\n`,
  });
}

export function appLink(path: string) {
  return new URL(path, env().APP_URL).toString();
}

/** Invites someone by e-mail to install the app: the mail carries the organisation's activation code. */
export async function sendDeviceInvitation(
  db: DB,
  ctx: { organizationId: number; organizationName: string; locale: string },
  email: string,
) {
  const { code } = await createDeviceInvitation(db, ctx, email);
  await sendAccountMail("deviceInvitation", email, ctx.locale, {
    link: appLink("/login"),
    organization: ctx.organizationName,
    code,
  });
}
