import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { Field } from "~/components/ui/field";
import { createMixedStackReport, requireMixedStackEditor } from "~/models/mixed-stack-report.server";
import { requireAppUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { errorResponse } from "~/utils/errors";
import { mixedStackDefaultName } from "~/utils/mixed-stack.server";
import { MixedStackCreateSchema } from "~/utils/schemas/mixed-stack";
import { redirectWithToast } from "~/utils/toast.server";
import { requireMixedStackScreens } from "./__mixed-stack.server";

// /reports/mixed-stack/new: a name (left empty, the report gets the default name), then its page.

export const handle = { i18n: ["mixed-stack"] };

async function editor(request: Request) {
  const ctx = await requireAppUser(request);
  requireMixedStackScreens(ctx);
  try {
    requireMixedStackEditor(ctx);
  } catch (error) {
    throw errorResponse(error) ?? error;
  }
  return ctx;
}

export async function loader({ request }: LoaderFunctionArgs) {
  await editor(request);
  return json({});
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await editor(request);
  const submission = parseWithZod(await request.formData(), { schema: MixedStackCreateSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 422 });
  const id = await createMixedStackReport(db(), ctx, submission.value, await mixedStackDefaultName(ctx));
  return redirectWithToast(`/reports/mixed-stack/${id}`, { type: "success", key: "mixed-stack:toast.created" });
}

export default function NewMixedStackReport() {
  const lastResult = useActionData<SubmissionResult<string[]>>();
  const saving = useNavigation().state === "submitting";
  const { t } = useTranslation("mixed-stack");
  const [form, fields] = useForm({
    id: "mixed-stack-new",
    lastResult,
    constraint: getZodConstraint(MixedStackCreateSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: MixedStackCreateSchema }),
  });
  return (
    <div className="page narrow-page">
      <div className="page-header">
        <h1 className="page-title">{t("new.title")}</h1>
        <Link className="btn" to="/reports/mixed-stack">
          {t("back")}
        </Link>
      </div>
      <Form method="post" className="card" data-testid="mixed-stack-new-form" {...getFormProps(form)}>
        <fieldset disabled={saving} className="form-grid">
          <Field
            label={t("fields.name")}
            inputProps={getInputProps(fields.name, { type: "text" })}
            errors={fields.name.errors?.map((e) => t(e))}
            hint={t("new.nameHint")}
          />
          <button type="submit" className="btn btn-primary" data-testid="mixed-stack-create">
            {t("new.submit")}
          </button>
        </fieldset>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
