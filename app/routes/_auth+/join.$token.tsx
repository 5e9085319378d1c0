import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthCard } from "~/components/accounts/password-fields";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { answerMembershipInvitation, findMembershipInvitation } from "~/models/user-admin.server";
import { db } from "~/utils/db.server";
import { unknownIntent } from "~/utils/errors";

// /join/{token}: an existing account invited to another organisation answers here (the e-mailed
// link proves the mailbox). The membership exists only after "accept".

export const handle = { i18n: ["accounts"] };

export async function loader({ params }: LoaderFunctionArgs) {
  const invitation = await findMembershipInvitation(db(), params.token);
  return json({ organization: invitation?.organization.name ?? null });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent !== "accept" && intent !== "decline") unknownIntent();
  const answered = await answerMembershipInvitation(db(), params.token, intent === "accept");
  if (!answered) return json({ answer: null }, { status: 404 });
  return json({ answer: intent });
}

export default function JoinOrganizationPage() {
  const { t } = useTranslation("accounts");
  const { organization } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <AuthCard title={t("membership.title")}>
      {data?.answer === "accept" ? (
        <div className="alert alert-success" role="status" data-testid="membership-answer">
          {t("membership.accepted")}
        </div>
      ) : data?.answer === "decline" ? (
        <div className="alert alert-info" role="status" data-testid="membership-answer">
          {t("membership.declined")}
        </div>
      ) : !organization || data ? (
        <div className="alert alert-warning" role="alert" data-testid="membership-answer">
          {t("errors.INVALID_INVITATION_TOKEN")}
        </div>
      ) : (
        <Form method="POST">
          <p>{t("membership.question", { organization })}</p>
          <div className="form-actions">
            <button type="submit" name="intent" value="accept" className="btn btn-primary">
              {t("membership.accept")}
            </button>
            <button type="submit" name="intent" value="decline" className="btn">
              {t("membership.decline")}
            </button>
          </div>
        </Form>
      )}
      <p className="auth-links">
        <Link to="/login">{t("reset.backToLogin")}</Link>
      </p>
    </AuthCard>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
