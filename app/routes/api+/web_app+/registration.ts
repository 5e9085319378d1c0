import { json, type ActionFunctionArgs } from "@remix-run/node";
import { EmailTakenError, registerOrganization } from "~/models/account.server";
import { methodNotAllowed, parseBody } from "~/utils/api.server";
import { db } from "~/utils/db.server";
import { getLanguage } from "~/utils/i18n.server";
import { RegistrationApiSchema } from "~/utils/schemas/accounts";

/** POST /api/web_app/registration {signup}: a new organisation and its admin; 422 "Email has already been taken". */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") methodNotAllowed();
  const { signup } = await parseBody(request, RegistrationApiSchema);
  try {
    const created = await registerOrganization(db(), signup, await getLanguage(request));
    return json({ organization_id: created.organizationId, user_id: created.userId }, { status: 201 });
  } catch (error) {
    if (!(error instanceof EmailTakenError)) throw error;
    return json(
      {
        error: "validation_failed",
        message: "Email has already been taken",
        errors: { "signup.admin_email": ["accounts:register.emailTaken"] },
      },
      { status: 422 },
    );
  }
}

export function loader() {
  return methodNotAllowed();
}
