import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SettingsTabs } from "~/components/accounts/settings-tabs";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { Field } from "~/components/ui/field";
import { volumeUnitLabel } from "~/domain";
import { getExportLayout, saveExportLayout } from "~/models/export-layout.server";
import { requireAppAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { unknownIntent } from "~/utils/errors";
import {
  ExportLayoutFormSchema,
  LAYOUT_HEADER_MAX,
  LAYOUT_TARGET_NAMES,
  LAYOUT_TARGETS,
  layoutColumnsOf,
  type LayoutTarget,
} from "~/utils/schemas/export-layouts";
import { redirectWithToast } from "~/utils/toast.server";

// The organisation's export layouts (docs/decisions/026-exports-and-labels.md, "Configurable
// export layouts"): per target, which catalogue columns, in which order, with which headers.
// Admins only; one form per target, each a plain POST that works without JavaScript.

export const handle = { i18n: ["accounts", "exports", "containers"] };

type Row = { key: string; include: boolean; position: number | null; header: string };

async function formRows(ctx: { organizationId: number }, target: LayoutTarget): Promise<Row[]> {
  const layout = await getExportLayout(db(), ctx, target);
  const keys: readonly string[] = LAYOUT_TARGETS[target];
  if (!layout) return keys.map((key, i) => ({ key, include: true, position: i + 1, header: "" }));
  const chosen = layout.map((c, i) => ({ key: c.key, include: true, position: i + 1, header: c.header ?? "" }));
  const rest = keys
    .filter((k) => !layout.some((c) => c.key === k))
    .map((key) => ({ key, include: false, position: null, header: "" }));
  return [...chosen, ...rest];
}

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const targets = await Promise.all(
    LAYOUT_TARGET_NAMES.map(async (target) => ({ target, rows: await formRows(ctx, target) })),
  );
  return json({
    targets,
    unit: volumeUnitLabel(ctx.user.volume_unit),
    enabled: ctx.features.includes("custom_export_layouts"),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const form = await request.formData();
  if (form.get("intent") !== "save") unknownIntent();
  const submission = parseWithZod(form, { schema: ExportLayoutFormSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 422 });
  await saveExportLayout(db(), ctx, submission.value.target, layoutColumnsOf(submission.value));
  return redirectWithToast("/settings/export_layouts", { type: "success", key: "exports:layouts.saved" });
}

/** A catalogue column's default header, as the file writes it. */
function useColumnName(unit: string) {
  const { t } = useTranslation(["exports", "containers"]);
  return (target: LayoutTarget, key: string) => {
    if (target === "bill_of_lading")
      return key === "volume" ? t("containers:excel.columns.volumeIn", { unit }) : t(`containers:excel.columns.${key}`);
    if (key === "length") return t("exports:excel.columns.length", { unit: "m" });
    if (key === "volume") return t("exports:excel.columns.volume", { unit });
    return t(`exports:excel.columns.${key}`);
  };
}

function LayoutForm({
  target,
  rows,
  unit,
  lastResult,
}: {
  target: LayoutTarget;
  rows: Row[];
  unit: string;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const { t } = useTranslation(["exports", "accounts"]);
  const columnName = useColumnName(unit);
  const [form, fields] = useForm({
    id: `layout-${target}`,
    lastResult,
    defaultValue: {
      intent: "save",
      target,
      columns: rows.map((r) => ({
        key: r.key,
        include: r.include ? "on" : undefined,
        position: r.position?.toString() ?? "",
        header: r.header,
      })),
    },
    constraint: getZodConstraint(ExportLayoutFormSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ExportLayoutFormSchema }),
  });
  const errs = (e: string[] | undefined) => e?.map((m) => t(m));
  return (
    <Form method="POST" className="card" data-testid={`layout-form-${target}`} {...getFormProps(form)}>
      <h2>{t(`exports:layouts.target.${target}`)}</h2>
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="target" value={target} />
      {form.errors?.length || fields.columns.errors?.length ? (
        <ul className="field-errors" id={`layout-${target}-errors`}>
          {errs([...(form.errors ?? []), ...(fields.columns.errors ?? [])])!.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
      <table className="table">
        <thead>
          <tr>
            <th>{t("exports:layouts.include")}</th>
            <th>{t("exports:layouts.column")}</th>
            <th>{t("exports:layouts.position")}</th>
            <th>{t("exports:layouts.header")}</th>
          </tr>
        </thead>
        <tbody>
          {fields.columns.getFieldList().map((row) => {
            const c = row.getFieldset();
            const key = String(c.key.initialValue ?? "");
            const name = columnName(target, key);
            return (
              <tr key={row.key}>
                <td>
                  <input type="hidden" name={c.key.name} value={key} />
                  <input
                    {...getInputProps(c.include, { type: "checkbox" })}
                    aria-label={`${t("exports:layouts.include")}: ${name}`}
                  />
                  {c.key.errors?.length ? (
                    <ul className="field-errors">
                      {errs(c.key.errors)!.map((e) => (
                        <li key={e}>{e}</li>
                      ))}
                    </ul>
                  ) : null}
                </td>
                <td>{name}</td>
                <td>
                  <Field
                    label={<span className="sr-only">{`${t("exports:layouts.position")}: ${name}`}</span>}
                    inputProps={{ ...getInputProps(c.position, { type: "number" }), min: 1, max: 99 }}
                    errors={errs(c.position.errors)}
                  />
                </td>
                <td>
                  <Field
                    label={<span className="sr-only">{`${t("exports:layouts.header")}: ${name}`}</span>}
                    inputProps={{
                      ...getInputProps(c.header, { type: "text" }),
                      maxLength: LAYOUT_HEADER_MAX,
                      placeholder: name,
                    }}
                    errors={errs(c.header.errors)}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="field-hint">{t("exports:layouts.defaultHint")}</p>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary">
          {t("exports:layouts.save")}
        </button>
      </div>
    </Form>
  );
}

export default function ExportLayoutsPage() {
  const { t } = useTranslation(["exports", "accounts"]);
  const { targets, unit } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const submittedTarget = (lastResult?.initialValue as { target?: string } | undefined)?.target;
  return (
    <div className="page">
      <h1 className="page-title">{t("accounts:settings.title")}</h1>
      <SettingsTabs isAdmin />
      <h2>{t("exports:layouts.title")}</h2>
      <p>{t("exports:layouts.intro")}</p>
      {targets.map(({ target, rows }) => (
        <LayoutForm
          key={target}
          target={target}
          rows={rows}
          unit={unit}
          lastResult={submittedTarget === target ? lastResult : undefined}
        />
      ))}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
