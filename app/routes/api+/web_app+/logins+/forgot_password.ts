import { json, type ActionFunctionArgs } from "@remix-run/node";
import { sendPasswordReset } from "~/models/account.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { getLanguage, i18nServer } from "~/utils/i18n.server";
import { ForgotPasswordSchema } from "~/utils/schemas/accounts";

/** POST /api/web_app/logins/forgot_password {email}: the same answer whether or not the address has an account. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const { email } = await parseBody(request, ForgotPasswordSchema);
  await sendPasswordReset(db(), email);
  const t = await i18nServer.getFixedT(await getLanguage(request), "accounts");
  return json({ message: t("forgot.sent") });
}

export function loader() {
  return methodNotAllowed();
}
