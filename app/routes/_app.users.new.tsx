import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "~/components/accounts/password-fields";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { Field } from "~/components/ui/field";
import { inviteUser, UserExistsError } from "~/models/user-admin.server";
import { issuesToErrors, requireAdminScreen } from "~/utils/admin-screen.server";
import { db } from "~/utils/db.server";
import { InviteSchema } from "~/utils/schemas/admin";
import { redirectWithToast } from "~/utils/toast.server";

export const handle = { i18n: ["accounts"] };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminScreen(request);
  return json({});
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireAdminScreen(request);
  const form = await request.formData();
  const email = String(form.get("email") ?? "");
  const parsed = InviteSchema.safeParse({ invite: { email } });
  if (!parsed.success) return json({ email, errors: issuesToErrors(parsed.error.issues, 1), exists: false }, { status: 422 });
  try {
    await inviteUser(db(), { ...ctx, organizationName: ctx.organization.name }, parsed.data.invite.email);
  } catch (error) {
    if (!(error instanceof UserExistsError)) throw error;
    return json({ email, errors: {} as Record<string, string[]>, exists: true }, { status: 422 });
  }
  return redirectWithToast("/users", { type: "success", key: "accounts:users.invited", values: { email: parsed.data.invite.email } });
}

export default function InviteUserPage() {
  const { t } = useTranslation("accounts");
  const data = useActionData<typeof action>();
  const [email, setEmail] = useState(data?.email ?? "");
  const hydrated = useHydrated();
  const form = useRef<HTMLFormElement>(null);
  // An address typed before hydration counts too.
  useEffect(() => setEmail((form.current?.elements.namedItem("email") as HTMLInputElement | null)?.value ?? ""), []);
  return (
    <div className="page page-narrow">
      <h1 className="page-title">{t("users.inviteTitle")}</h1>
      {data?.exists ? (
        <div className="alert alert-warning" role="alert" data-testid="user-exists">
          {t("users.exists", { email: data.email })}
        </div>
      ) : null}
      <Form method="POST" className="card" ref={form}>
        <Field
          label={t("users.email")}
          inputProps={{ name: "email", id: "email", type: "email", required: true, defaultValue: data?.email ?? "", onChange: (e) => setEmail(e.target.value), autoFocus: true }}
          errors={data?.errors?.email?.map((e) => t(e))}
          hint={t("users.inviteHint")}
        />
        <div className="form-actions">
          <Link to="/users" className="btn">{t("common.cancel")}</Link>
          <button type="submit" className="btn btn-primary" disabled={hydrated && email.trim() === ""}>
            {t("users.sendInvite")}
          </button>
        </div>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
