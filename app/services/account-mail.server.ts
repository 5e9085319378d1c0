import { env } from "~/utils/env.server";
import { i18nServer } from "~/utils/i18n.server";
import { sendMail } from "./mailer.server";

// The account e-mails (reset, verification, invitations), written in the recipient's language.
type Kind = "passwordReset" | "verification" | "invitation" | "addedToOrganization" | "deviceInvitation";

export async function sendAccountMail(kind: Kind, to: string, locale: string, values: { link: string; organization?: string; code?: string }) {
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
