import { attemptLogin } from "~/models/login.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { clientIp } from "~/utils/load-context";
import { loginAnswer, loginErrorAnswer } from "~/utils/login-api.server";
import { LoginApiSchema } from "~/utils/schemas/auth";
import type { ActionFunctionArgs } from "@remix-run/node";

/** POST /api/web_app/logins: credentials{email,password} -> 200 {access_token, created_at, expires_in}, 202 code needed, 400 password expired. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const { credentials } = await parseBody(request, LoginApiSchema);
  try {
    return await loginAnswer(request, clientIp(context), await attemptLogin(db(), credentials));
  } catch (error) {
    return loginErrorAnswer(request, error);
  }
}

export function loader() {
  return methodNotAllowed();
}
