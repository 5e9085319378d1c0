import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { RoleBadge } from "~/components/accounts/role-badge";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { Field } from "~/components/ui/field";
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
import { forbidden, issuesToErrors, notFound, unknownIntent } from "~/utils/errors";
import { ASSIGNABLE_ROLES, RoleCreateSchema, UserRenameSchema } from "~/utils/schemas/admin";
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
      const type = String(form.get("resource_type") ?? "");
      const resource = String(form.get("resource_id") ?? "");
      const key =
        type === "Organization"
          ? "organization_id"
          : type === "Storage"
            ? "storage_id"
            : type === "StorageGroup"
              ? "storage_group_id"
              : "none";
      const parsed = RoleCreateSchema.safeParse({
        role: { name: form.get("role_name") || undefined, user_id: id },
        ...(resource && key !== "none" ? { [key]: resource } : {}),
      });
      if (!parsed.success)
        return json({ intent: "add_role" as const, errors: issuesToErrors(parsed.error.issues) }, { status: 422 });
      try {
        await assignRole(db(), ctx, parsed.data);
      } catch (error) {
        if (!(error instanceof RoleRuleError)) throw error;
        if (error.code === "NOT_FOUND")
          return json(
            {
              intent: "add_role" as const,
              errors: { resource: ["accounts:roles.resourceRequired"] } as Record<string, string[]>,
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
  const errors: Record<string, string[]> = (data && "errors" in data ? data.errors : {}) ?? {};
  const [renameForm, renameFields] = useForm({
    id: "user-rename",
    lastResult: data && "result" in data ? data.result : undefined,
    defaultValue: { name: user.name ?? "" },
    constraint: getZodConstraint(UserRenameSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: UserRenameSchema }),
  });
  const [type, setType] = useState("");
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
          <Form method="POST" className="role-form">
            <input type="hidden" name="intent" value="add_role" />
            <div className="field">
              <label htmlFor="role_name">{t("roles.role")}</label>
              <select id="role_name" name="role_name" required defaultValue="">
                <option value="">{t("common.choose")}</option>
                {ASSIGNABLE_ROLES.map((r) => (
                  <option key={r} value={r}>
                    {t(`roles.names.${r}`)}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="resource_type">{t("roles.resourceType")}</label>
              <select
                id="resource_type"
                name="resource_type"
                required
                value={type}
                onChange={(e) => setType(e.target.value)}
              >
                <option value="">{t("common.choose")}</option>
                {["Organization", "Storage", "StorageGroup"].map((k) => (
                  <option key={k} value={k}>
                    {t(`roles.types.${k}`)}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="resource_id">{t("roles.resource")}</label>
              <select
                id="resource_id"
                name="resource_id"
                required
                defaultValue=""
                aria-invalid={errors.resource ? true : undefined}
              >
                <option value="">{t("common.choose")}</option>
                {!type || type === "Organization" ? <option value={organization.id}>{organization.name}</option> : null}
                {!type || type === "Storage" ? (
                  <optgroup label={t("roles.types.Storage")}>
                    {storages.map((s) => (
                      <option key={s.id} value={s.id}>
                        {s.name}
                      </option>
                    ))}
                  </optgroup>
                ) : null}
                {(!type || type === "StorageGroup") && groups.length ? (
                  <optgroup label={t("roles.types.StorageGroup")}>
                    {groups.map((g) => (
                      <option key={g.id} value={g.id}>
                        {g.name}
                      </option>
                    ))}
                  </optgroup>
                ) : null}
              </select>
              {errors.resource ? (
                <ul className="field-errors">
                  {errors.resource.map((e) => (
                    <li key={e}>{t(e)}</li>
                  ))}
                </ul>
              ) : null}
            </div>
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
