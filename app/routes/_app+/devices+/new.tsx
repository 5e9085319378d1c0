import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DevicesTabs } from "~/components/devices/devices-tabs";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { Field } from "~/components/ui/field";
import { invitationAgeDays, listPendingInvitations } from "~/models/device-admin.server";
import { sendDeviceInvitation } from "~/services/account-mail.server";
import { requireAppAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { unknownIntent } from "~/utils/errors";
import { InviteFieldsSchema } from "~/utils/schemas/admin";
import { redirectWithToast } from "~/utils/toast.server";

export const handle = { i18n: ["accounts"] };

// The link-device panel: choose, then "by code" (the activation code for the mobile app) or
// "by email" (an invitation). Its state lives in ?by= so it works without JavaScript.
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const by = new URL(request.url).searchParams.get("by");
  const invitations = await listPendingInvitations(db(), ctx);
  return json({
    by: by === "code" || by === "email" ? by : null,
    code: ctx.organization.device_activation_code,
    invitations: invitations.map((i) => ({ id: i.id, sentTo: i.sent_to, days: invitationAgeDays(i.sent_at) })),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const form = await request.formData();
  if (form.get("intent") !== "send_invite") unknownIntent();
  const submission = parseWithZod(form, { schema: InviteFieldsSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 422 });
  await sendDeviceInvitation(
    db(),
    { ...ctx, organizationName: ctx.organization.name, locale: ctx.user.locale },
    submission.value.email,
  );
  return redirectWithToast("/devices/new?by=email", { type: "success", key: "accounts:devices.inviteSent" });
}

export default function LinkDevicePage() {
  const { t } = useTranslation("accounts");
  const { by, code, invitations } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "device-invite",
    lastResult,
    constraint: getZodConstraint(InviteFieldsSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: InviteFieldsSchema }),
  });
  return (
    <div className="page page-narrow">
      <h1 className="page-title">{t("devices.linkTitle")}</h1>
      <DevicesTabs />
      {!code ? (
        <div className="alert alert-warning" role="alert" data-testid="no-code">
          {t("devices.noCode")}
        </div>
      ) : null}
      {by === null ? (
        <div className="choice-cards">
          <Link to="?by=code" className="card choice-card">
            <strong>{t("devices.byCode")}</strong>
            <span className="muted">{t("devices.byCodeText")}</span>
          </Link>
          <Link to="?by=email" className="card choice-card">
            <strong>{t("devices.byEmail")}</strong>
            <span className="muted">{t("devices.byEmailText")}</span>
          </Link>
        </div>
      ) : by === "code" ? (
        <section className="card">
          <p>{t("devices.codeText")}</p>
          {code ? (
            <Field
              label={t("devices.activationCode")}
              inputProps={{ id: "activation_code", value: code, readOnly: true, className: "code-input" }}
            />
          ) : null}
          <Link to="/devices" className="btn">
            {t("devices.backToList")}
          </Link>
        </section>
      ) : (
        <section className="card">
          <Form method="POST" {...getFormProps(form)}>
            <input type="hidden" name="intent" value="send_invite" />
            <Field
              label={t("devices.inviteEmail")}
              inputProps={getInputProps(fields.email, { type: "email" })}
              errors={fields.email.errors?.map((e) => t(e))}
            />
            <div className="form-actions">
              <Link to="?" className="btn">
                {t("common.back")}
              </Link>
              <button type="submit" className="btn btn-primary">
                {t("devices.sendInvite")}
              </button>
            </div>
          </Form>
        </section>
      )}
      <section className="card">
        <h2>{t("devices.pending")}</h2>
        {invitations.length === 0 ? (
          <p className="muted">{t("devices.noPending")}</p>
        ) : (
          <ul className="role-rows" data-testid="pending-invitations">
            {invitations.map((i) => (
              <li key={i.id}>
                <span>{i.sentTo}</span>
                <span className="muted push-right">
                  {i.days === 0 ? t("devices.today") : t("devices.daysAgo", { count: i.days })}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
