import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ExportButton } from "~/components/exports/export-button";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { InventoryActionForm } from "~/components/inventories/confirm-form";
import { InventoriesTable } from "~/components/inventories/inventories-table";
import { EmptyState } from "~/components/ui/empty-state";
import { inventoryStorages, listInventories, serializeInventory } from "~/models/inventory.server";
import { canEdit } from "~/models/measurement-kind.server";
import { fieldErrors } from "~/utils/api.server";
import { requireAppUser, requireFeature } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { inventoryFilterFromSearch } from "~/utils/schemas/inventory";
import { pageParam } from "~/utils/schemas/limits";
import { formatsFor } from "~/utils/use-format";
import { handleInventoryAction, type InventoryActionData } from "./_index.server";

export const handle = { i18n: ["inventories", "exports"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  const user = {
    locale: ctx.user.locale,
    timeZone: ctx.user.time_zone,
    precision: ctx.user.rounding_precision,
    unit: ctx.user.volume_unit,
  };
  if (!ctx.features.includes("inventories")) return json({ enabled: false as const, user });
  const url = new URL(request.url);
  const { raw, parsed } = inventoryFilterFromSearch(url.searchParams);
  const page = pageParam(url.searchParams.get("page"));
  const [list, storages] = await Promise.all([
    listInventories(db(), ctx, parsed.success ? parsed.data : {}, page),
    inventoryStorages(db(), ctx),
  ]);
  const editable = new Set(storages.filter((s) => canEdit(ctx, s)).map((s) => s.id));
  return json({
    enabled: true as const,
    user,
    values: raw,
    filterErrors: parsed.success ? {} : fieldErrors(parsed.error),
    openId: Number(url.searchParams.get("open")) || null,
    storages: storages.map((s) => ({ id: s.id, name: s.name })),
    meta: list.meta,
    inventories: list.inventories.map((i) => ({ ...serializeInventory(i), canConfirm: editable.has(i.storage_id) })),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireAppUser(request);
  requireFeature(ctx, "inventories");
  return handleInventoryAction(request, ctx);
}

export default function InventoriesPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<InventoryActionData>();
  const { t } = useTranslation(["inventories", "exports"]);
  const location = useLocation();
  const navigation = useNavigation();
  const f = formatsFor(data.user);
  if (!data.enabled) {
    return (
      <div className="page">
        <h1 className="page-title">{t("title")}</h1>
        <div className="alert alert-warning" role="status" data-testid="billing-warning">
          <strong>{t("billing.title")}</strong> {t("billing.text")} <a href="/billing">{t("billing.link")}</a>
        </div>
      </div>
    );
  }
  const hrefWith = (changes: Record<string, string | null>) => {
    const p = new URLSearchParams(location.search);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) p.delete(k);
      else p.set(k, v);
    }
    return `?${p}`;
  };
  const monthFormat = new Intl.DateTimeFormat(f.locale, {
    month: "long",
    year: "numeric",
    timeZone: data.user.timeZone,
  });
  const step = actionData?.step;
  const loading = navigation.state === "loading" && navigation.location?.pathname === "/inventories";
  return (
    <div className="page inventories-page" aria-busy={loading || undefined}>
      <div className="page-header">
        <h1 className="page-title">{t("title")}</h1>
        <div className="page-actions">
          {data.values.storage_id ? (
            <ExportButton
              kind="excel"
              reportType="inventories_excel"
              fields={{ storage_id: data.values.storage_id }}
              label={t("actions.storageExcel")}
            />
          ) : null}
        </div>
      </div>
      <details className="help">
        <summary>{t("help.summary")}</summary>
        <p>{t("help.text")}</p>
      </details>
      {actionData?.errors?.length ? (
        <div className="alert alert-danger" role="alert" data-testid="inventory-errors">
          {actionData.errors.map((key) => t(key)).join(". ")}
        </div>
      ) : null}
      {step ? (
        <section className="alert alert-warning confirm-step" data-testid="confirm-step">
          <p>
            {step.intent === "create"
              ? t("actions.createQuestion", { storage: step.storageName })
              : t("actions.confirmQuestion", { storage: step.storageName })}
          </p>
          <InventoryActionForm
            intent={step.intent}
            fields={step.intent === "create" ? { storage_id: step.id } : { inventory_id: step.id }}
            question=""
            preConfirmed
            className="inline-form"
          >
            <button type="submit" className="btn btn-primary" data-testid="confirm-step-yes">
              {step.intent === "create" ? t("actions.create") : t("actions.confirm")}
            </button>{" "}
            <Link className="btn" to="/inventories">
              {t("actions.cancel")}
            </Link>
          </InventoryActionForm>
        </section>
      ) : null}
      <Form method="get" className="filters inventory-filters" data-testid="inventory-filters">
        <label>
          {t("filters.storage")}
          <select name="storage_id" defaultValue={data.values.storage_id ?? ""}>
            <option value="">{t("filters.allStorages")}</option>
            {data.storages.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("filters.month")}
          <input
            type="month"
            name="month"
            defaultValue={data.values.month ?? ""}
            aria-invalid={data.filterErrors.month ? true : undefined}
            aria-describedby={data.filterErrors.month ? "month-error" : undefined}
          />
          {data.filterErrors.month ? (
            <span className="field-error" id="month-error">
              {t(data.filterErrors.month[0])}
            </span>
          ) : null}
        </label>
        <button type="submit" className="btn">
          {t("filters.apply")}
        </button>
      </Form>
      {data.inventories.length === 0 ? (
        <EmptyState title={t("empty.title")} text={t("empty.text")} testId="inventories-empty">
          <Link className="btn" to="/measurements/timber">
            {t("empty.dashboard")}
          </Link>
        </EmptyState>
      ) : (
        <InventoriesTable
          inventories={data.inventories}
          openId={data.openId}
          hrefWith={hrefWith}
          volume={(v) => f.volume(v)}
          month={(iso) => monthFormat.format(new Date(iso))}
          dateTime={(iso) => f.dateTime(iso)}
        />
      )}
      {data.meta.total_pages > 1 ? (
        <nav className="pager" aria-label={t("pager.label")}>
          {data.meta.page > 1 ? (
            <Link to={hrefWith({ page: String(data.meta.page - 1) })} className="btn btn-small">
              {t("pager.previous")}
            </Link>
          ) : null}
          <span className="muted">{t("pager.status", { page: data.meta.page, total: data.meta.total_pages })}</span>
          {data.meta.page < data.meta.total_pages ? (
            <Link to={hrefWith({ page: String(data.meta.page + 1) })} className="btn btn-small">
              {t("pager.next")}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
