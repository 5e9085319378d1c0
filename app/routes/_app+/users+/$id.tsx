import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { RoleBadge } from "~/components/accounts/role-badge";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { Field } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select-field";
import { listStorages } from "~/models/lookup.server";
import {
  assignRole,
  getOrganizationUser,
  listStorageGroups,
  removeRole,
  removeUser,
  renameUser,
  RoleRuleError,
} from "~/models/user-admin.server";
import { parseId } from "~/utils/api.server";
import { requireAppAdmin } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { forbidden, notFound, unknownIntent } from "~/utils/errors";
import {
  ASSIGNABLE_ROLES,
  ROLE_RESOURCE_TYPES,
  RoleCreateSchema,
  RoleFormSchema,
  roleFormPayload,
  UserRenameSchema,
} from "~/utils/schemas/admin";
import { redirectWithToast } from "~/utils/toast.server";

export const handle = { i18n: ["accounts"] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const user = await getOrganizationUser(db(), ctx, parseId(params.id));
  if (!user) notFound();
  const [storages, groups] = await Promise.all([listStorages(db(), ctx), listStorageGroups(db(), ctx)]);
  const names: Record<string, string> = { [`Organization:${ctx.organizationId}`]: ctx.organization.name };
  for (const s of storages) names[`Storage:${s.id}`] = s.name;
  for (const g of groups) names[`StorageGroup:${g.id}`] = g.name;
  return json({
    user: { id: user.id, email: user.email, name: user.name },
    roles: user.roles.map((r) => ({
      id: r.id,
      name: r.name,
      type: r.assignable_type,
      resource: names[`${r.assignable_type}:${r.assignable_id}`] ?? `#${r.assignable_id}`,
    })),
    isSelf: user.id === ctx.userId,
    organization: { id: ctx.organizationId, name: ctx.organization.name },
    storages: storages.map((s) => ({ id: s.id, name: s.name })),
    groups,
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireAppAdmin(request);
  const id = parseId(params.id);
  const form = await request.formData();
  switch (form.get("intent")) {
    case "rename": {
      const submission = parseWithZod(form, { schema: UserRenameSchema });
      if (submission.status !== "success")
        return json({ intent: "rename" as const, result: submission.reply() }, { status: 422 });
      // The name belongs to the person, across organisations: an admin changes only roles here.
      if (id !== ctx.userId) {
        if (!(await getOrganizationUser(db(), ctx, id))) notFound();
        forbidden();
      }
      if (!(await renameUser(db(), ctx, id, submission.value.name))) notFound();
      return redirectWithToast(`/users/${id}`, { type: "success", key: "accounts:users.saved" });
    }
    case "delete": {
      if (id === ctx.userId) forbidden();
      if (!(await removeUser(db(), ctx, id))) notFound();
      return redirectWithToast("/users", { type: "success", key: "accounts:users.deleted" });
    }
    case "add_role": {
      const submission = parseWithZod(form, { schema: RoleFormSchema });
      if (submission.status !== "success")
        return json({ intent: "add_role" as const, result: submission.reply() }, { status: 422 });
      try {
        await assignRole(db(), ctx, RoleCreateSchema.parse(roleFormPayload(id, submission.value)));
      } catch (error) {
        if (!(error instanceof RoleRuleError)) throw error;
        if (error.code === "NOT_FOUND")
          return json(
            {
              intent: "add_role" as const,
              result: submission.reply({ fieldErrors: { resource_id: ["accounts:roles.resourceRequired"] } }),
            },
            { status: 422 },
          );
        forbidden();
      }
      return redirectWithToast(`/users/${id}`, { type: "success", key: "accounts:roles.added" });
    }
    case "remove_role": {
      try {
        await removeRole(db(), ctx, parseId(String(form.get("role_id") ?? "")));
      } catch (error) {
        if (!(error instanceof RoleRuleError)) throw error;
        if (error.code === "NOT_FOUND") notFound();
        forbidden();
      }
      return redirectWithToast(`/users/${id}`, { type: "success", key: "accounts:roles.removed" });
    }
    default:
      unknownIntent();
  }
}

export default function UserEditPage() {
  const { t } = useTranslation("accounts");
  const { user, roles, isSelf, organization, storages, groups } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const [renameForm, renameFields] = useForm({
    id: "user-rename",
    lastResult: data?.intent === "rename" ? data.result : undefined,
    defaultValue: { name: user.name ?? "" },
    constraint: getZodConstraint(UserRenameSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: UserRenameSchema }),
  });
  const [roleForm, roleFields] = useForm({
    id: "user-add-role",
    lastResult: data?.intent === "add_role" ? data.result : undefined,
    constraint: getZodConstraint(RoleFormSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RoleFormSchema }),
  });
  const [type, setType] = useState(roleFields.resource_type.initialValue ?? "");
  const tr = (list?: string[]) => list?.map((e) => t(e));
  return (
    <div className="page page-narrow">
      <p>
        <Link to="/users">← {t("users.title")}</Link>
      </p>
      <h1 className="page-title">{user.email}</h1>
      {isSelf ? (
        <Form method="POST" className="card" {...getFormProps(renameForm)}>
          <h2>{t("users.profile")}</h2>
          <input type="hidden" name="intent" value="rename" />
          <Field
            label={t("users.name")}
            inputProps={getInputProps(renameFields.name, { type: "text" })}
            errors={renameFields.name.errors?.map((e) => t(e))}
          />
          <div className="form-actions">
            <button type="submit" className="btn btn-primary">
              {t("common.save")}
            </button>
          </div>
        </Form>
      ) : (
        <section className="card" data-testid="member-profile">
          <h2>{t("users.profile")}</h2>
          <p>
            {t("users.name")}: {user.name ?? "—"}
          </p>
        </section>
      )}

      {isSelf ? null : (
        <section className="card" data-testid="role-panel">
          <h2>{t("roles.title")}</h2>
          {roles.length === 0 ? <p className="muted">{t("roles.none")}</p> : null}
          <ul className="role-rows" data-testid="role-rows">
            {roles.map((r) => (
              <li key={r.id}>
                <RoleBadge name={r.name} /> <span className="muted">{t(`roles.types.${r.type}`)}</span> {r.resource}
                <Form method="POST" className="inline-form">
                  <input type="hidden" name="intent" value="remove_role" />
                  <input type="hidden" name="role_id" value={r.id} />
                  <button type="submit" className="btn btn-small" aria-label={t("roles.remove")}>
                    {t("roles.remove")}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
          <Form method="POST" className="role-form" data-testid="add-role-form" {...getFormProps(roleForm)}>
            <input type="hidden" name="intent" value="add_role" />
            <SelectField
              label={t("roles.role")}
              options={ASSIGNABLE_ROLES.map((r) => [r, t(`roles.names.${r}`)])}
              selectProps={getSelectProps(roleFields.role_name)}
              errors={tr(roleFields.role_name.errors)}
            />
            <SelectField
              label={t("roles.resourceType")}
              options={ROLE_RESOURCE_TYPES.map((k) => [k, t(`roles.types.${k}`)])}
              selectProps={{ ...getSelectProps(roleFields.resource_type), onChange: (e) => setType(e.target.value) }}
              errors={tr(roleFields.resource_type.errors)}
            />
            <SelectField
              label={t("roles.resource")}
              options={!type || type === "Organization" ? [[organization.id, organization.name]] : []}
              groups={[
                ...(!type || type === "Storage"
                  ? [
                      {
                        label: t("roles.types.Storage"),
                        options: storages.map((s) => [s.id, s.name] as [number, string]),
                      },
                    ]
                  : []),
                ...((!type || type === "StorageGroup") && groups.length
                  ? [
                      {
                        label: t("roles.types.StorageGroup"),
                        options: groups.map((g) => [g.id, g.name] as [number, string]),
                      },
                    ]
                  : []),
              ]}
              selectProps={getSelectProps(roleFields.resource_id)}
              errors={tr(roleFields.resource_id.errors)}
            />
            <button type="submit" className="btn btn-primary">
              {t("roles.add")}
            </button>
          </Form>
        </section>
      )}

      {isSelf ? null : (
        <details className="card danger-zone">
          <summary>{t("users.delete")}</summary>
          <p>{t("users.deleteConfirm", { email: user.email })}</p>
          <Form method="POST">
            <input type="hidden" name="intent" value="delete" />
            <button type="submit" className="btn btn-danger">
              {t("users.deleteSubmit")}
            </button>
          </Form>
        </details>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
