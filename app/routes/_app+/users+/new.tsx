import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { Field } from "~/components/ui/field";
import { inviteUser, UserExistsError } from "~/models/user-admin.server";
import { requireAppAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { InviteFieldsSchema } from "~/utils/schemas/admin";
import { redirectWithToast } from "~/utils/toast.server";
import { useHydrated } from "~/utils/use-hydrated";

export const handle = { i18n: ["accounts"] };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAppAdmin(request);
  return json({});
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const submission = parseWithZod(await request.formData(), { schema: InviteFieldsSchema });
  if (submission.status !== "success") return json({ result: submission.reply(), exists: false }, { status: 422 });
  try {
    await inviteUser(db(), { ...ctx, organizationName: ctx.organization.name }, submission.value.email);
  } catch (error) {
    if (!(error instanceof UserExistsError)) throw error;
    return json({ result: submission.reply(), exists: true }, { status: 422 });
  }
  return redirectWithToast("/users", {
    type: "success",
    key: "accounts:users.invited",
    values: { email: submission.value.email },
  });
}

export default function InviteUserPage() {
  const { t } = useTranslation("accounts");
  const data = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "invite-user",
    lastResult: data?.result,
    constraint: getZodConstraint(InviteFieldsSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: InviteFieldsSchema }),
  });
  const hydrated = useHydrated();
  const [email, setEmail] = useState("");
  const formRef = useRef<HTMLFormElement>(null);
  // An address typed before hydration counts too.
  useEffect(() => setEmail((formRef.current?.elements.namedItem("email") as HTMLInputElement | null)?.value ?? ""), []);
  return (
    <div className="page page-narrow">
      <h1 className="page-title">{t("users.inviteTitle")}</h1>
      {data?.exists ? (
        <div className="alert alert-warning" role="alert" data-testid="user-exists">
          {t("users.exists", { email: fields.email.initialValue ?? "" })}
        </div>
      ) : null}
      <Form method="POST" className="card" ref={formRef} {...getFormProps(form)}>
        <Field
          label={t("users.email")}
          inputProps={{
            ...getInputProps(fields.email, { type: "email" }),
            onChange: (e) => setEmail(e.target.value),
            autoFocus: true,
          }}
          errors={fields.email.errors?.map((e) => t(e))}
          hint={t("users.inviteHint")}
        />
        <div className="form-actions">
          <Link to="/users" className="btn">
            {t("common.cancel")}
          </Link>
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
