import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation, useRevalidator, useSearchParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ExportButton } from "~/components/exports/export-button";
import { statusName } from "~/components/exports/export-notices";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { DAY_INPUT_PROPS } from "~/components/ui/day-input";
import { EmptyState } from "~/components/ui/empty-state";
import { formatDateTime } from "~/domain";
import { EXPORT_SORTS, listExports, serializeExport, type ExportSort } from "~/models/export.server";
import { findExportType } from "~/services/exports/registry.server";
import { removeExport } from "~/services/exports.server";
import { fileStorage } from "~/services/file-storage.server";
import { requireAppUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { unknownIntent } from "~/utils/errors";
import { detailText } from "~/utils/export-detail";
import { redirectWithToast } from "~/utils/toast.server";
import { useRealtime } from "~/utils/use-realtime";

// The exports list: everyone in the organisation sees its Excel and PDF exports (spec); search
// by name, sort by name, status or creation, New for a minute, a warning overlay on partially
// done ones, deletion after a confirmation step that works without JavaScript (?confirm=id).

export const handle = { i18n: ["exports"] };
export const NEW_FOR_MS = 60_000;
const INTENT_DELETE = "delete";

function readParams(url: URL) {
  const sortParam = url.searchParams.get("sort");
  const sort: ExportSort = (EXPORT_SORTS as readonly string[]).includes(sortParam ?? "")
    ? (sortParam as ExportSort)
    : "created_at";
  const dir = url.searchParams.get("dir") === "asc" ? "asc" : "desc";
  return { q: url.searchParams.get("q")?.slice(0, 100) ?? "", sort, dir } as const;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  const url = new URL(request.url);
  const params = readParams(url);
  const rows = await listExports(db(), ctx, params);
  const confirmId = Number(url.searchParams.get("confirm"));
  return json({
    ...params,
    now: Date.now(),
    userId: ctx.userId,
    qrLabels: ctx.features.includes("qr_code"),
    locale: ctx.user.locale,
    timeZone: ctx.user.time_zone,
    confirm: rows.find((r) => r.id === confirmId) ? confirmId : null,
    exports: rows.map((r) => ({
      ...serializeExport(r),
      // The registry names the type; a type taken out of it since shows its kind only.
      typeLabel: findExportType(r.report_type)?.labelKey ?? null,
      owner: r.user_name ?? r.user_email ?? null,
      canDelete: r.user_id === ctx.userId || ctx.isAdmin,
    })),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireAppUser(request);
  const form = await request.formData();
  const back = `/exports${
    typeof form.get("query") === "string" && String(form.get("query")).startsWith("?")
      ? String(form.get("query"))
          .replace(/([?&])confirm=\d+&?/, "$1")
          .replace(/[?&]$/, "")
      : ""
  }`;
  switch (form.get("intent")) {
    case INTENT_DELETE: {
      const id = Number(form.get("id"));
      const result = Number.isInteger(id) && id > 0 ? await removeExport(db(), fileStorage(), ctx, id) : "not_found";
      if (result === "deleted") return redirectWithToast(back, { type: "success", key: "exports:toast.deleted" });
      return redirectWithToast(back, {
        type: "error",
        key: result === "forbidden" ? "exports:toast.deleteForbidden" : "exports:toast.deleteMissing",
      });
    }
    default:
      unknownIntent();
  }
}

export default function ExportsPage() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("exports");
  const [searchParams] = useSearchParams();
  const revalidator = useRevalidator();
  // Loading state: a search, a sort or a deletion on its way dims the list.
  const loading = useNavigation().state !== "idle";
  const [now, setNow] = useState(data.now);

  // The New tag fades after a minute; the clock ticks so it goes without a reload.
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 5_000);
    return () => clearInterval(timer);
  }, [data.now]);
  // Follow exports in progress: any export event of the owner, and a poll while something runs.
  useRealtime(`user:${data.userId}`, "excel-export-created", () => revalidator.revalidate());
  useRealtime(`user:${data.userId}`, "pdf-export-created", () => revalidator.revalidate());
  const running = data.exports.some((e) => e.status === 0);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => revalidator.state === "idle" && revalidator.revalidate(), 2_000);
    return () => clearInterval(timer);
  }, [running, revalidator]);

  const sortLink = (key: ExportSort) => {
    const next = new URLSearchParams(searchParams);
    next.delete("confirm");
    next.set("sort", key);
    next.set("dir", data.sort === key && data.dir === "asc" ? "desc" : "asc");
    return `?${next}`;
  };
  const sortMark = (key: ExportSort) => (data.sort === key ? (data.dir === "asc" ? " ▲" : " ▼") : "");
  const ariaSort = (key: ExportSort) =>
    data.sort === key ? (data.dir === "asc" ? "ascending" : "descending") : "none";
  const confirmLink = (id: number) => {
    const next = new URLSearchParams(searchParams);
    next.set("confirm", String(id));
    return `?${next}`;
  };
  const cancelLink = () => {
    const next = new URLSearchParams(searchParams);
    next.delete("confirm");
    const s = next.toString();
    return s ? `?${s}` : "/exports";
  };
  const toConfirm = data.exports.find((e) => e.id === data.confirm);

  return (
    <div className="page exports-page">
      <div className="page-header">
        <h1 className="page-title">{t("list.title")}</h1>
        {data.qrLabels ? (
          <Link className="btn" to="/qr_labels" data-testid="qr-labels-link">
            {t("button.qrLabels")}
          </Link>
        ) : null}
        <Form method="get" className="exports-search" role="search">
          <input type="hidden" name="sort" value={data.sort} />
          <input type="hidden" name="dir" value={data.dir} />
          <label className="sr-only" htmlFor="exports-q">
            {t("list.search")}
          </label>
          <input id="exports-q" type="search" name="q" defaultValue={data.q} placeholder={t("list.search")} />
          <button type="submit" className="btn">
            {t("list.searchButton")}
          </button>
        </Form>
      </div>

      <details className="exports-new">
        <summary>{t("new.title")}</summary>
        <p className="muted">{t("new.text")}</p>
        <ExportButton kind="excel" reportType="dashboard_excel" label={t("new.submit")} className="exports-new-form">
          <label>
            {t("new.from")}
            <input {...DAY_INPUT_PROPS} name="taken_at_start" required />
          </label>
          <label>
            {t("new.to")}
            <input {...DAY_INPUT_PROPS} name="taken_at_end" required />
          </label>
        </ExportButton>
      </details>

      {toConfirm ? (
        <section
          className="alert alert-warning exports-confirm"
          role="alertdialog"
          aria-labelledby="confirm-title"
          data-testid="delete-confirmation"
        >
          <h2 id="confirm-title">{t("delete.title")}</h2>
          <p>{t("delete.text", { name: toConfirm.name })}</p>
          <Form method="post">
            <input type="hidden" name="intent" value={INTENT_DELETE} />
            <input type="hidden" name="id" value={toConfirm.id} />
            <input type="hidden" name="query" value={`?${searchParams}`} />
            <button type="submit" className="btn btn-primary">
              {t("delete.confirm")}
            </button>{" "}
            <Link to={cancelLink()} className="btn btn-ghost">
              {t("delete.cancel")}
            </Link>
          </Form>
        </section>
      ) : null}

      {data.exports.length === 0 ? (
        <EmptyState
          title={data.q ? t("list.noMatchTitle") : t("list.emptyTitle")}
          text={data.q ? t("list.noMatchText", { q: data.q }) : t("list.emptyText")}
        />
      ) : (
        <div className={loading ? "table-wrap exports-loading" : "table-wrap"} aria-busy={loading}>
          <table className="table exports-table" data-testid="exports-table">
            <thead>
              <tr>
                <th aria-sort={ariaSort("name")}>
                  <Link to={sortLink("name")}>
                    {t("list.name")}
                    {sortMark("name")}
                  </Link>
                </th>
                <th>{t("list.type")}</th>
                <th aria-sort={ariaSort("status")}>
                  <Link to={sortLink("status")}>
                    {t("list.status")}
                    {sortMark("status")}
                  </Link>
                </th>
                <th aria-sort={ariaSort("created_at")}>
                  <Link to={sortLink("created_at")}>
                    {t("list.created")}
                    {sortMark("created_at")}
                  </Link>
                </th>
                <th>{t("list.owner")}</th>
                <th>
                  <span className="sr-only">{t("list.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.exports.map((e) => (
                <tr
                  key={`${e.kind}-${e.id}`}
                  data-testid={`export-${e.id}`}
                  className={e.status === 2 ? "export-row-partial" : undefined}
                >
                  <td>
                    {e.name}
                    {now - new Date(e.created_at).getTime() < NEW_FOR_MS ? (
                      <span className="badge badge-new" data-testid="new-tag">
                        {t("list.new")}
                      </span>
                    ) : null}
                  </td>
                  <td data-testid="export-type">
                    {e.typeLabel ? `${t(e.typeLabel)} · ${t(`list.kinds.${e.kind}`)}` : t(`list.kinds.${e.kind}`)}
                  </td>
                  <td className="export-status">
                    <span
                      className={`export-status-${statusName(e.status)}`}
                      data-testid="export-status"
                      data-status={e.status}
                    >
                      {t(`status.${statusName(e.status)}`)}
                    </span>
                    {e.status === 0 ? (
                      <progress
                        max={100}
                        value={e.progress}
                        aria-label={t("list.progress", { progress: e.progress })}
                      />
                    ) : null}
                    {e.status === 3 && e.status_detail ? (
                      <span className="muted export-detail">{detailText(t, e.status_detail)}</span>
                    ) : null}
                    {e.status === 2 ? (
                      <div className="export-warning-overlay" role="note" data-testid="partial-warning">
                        <strong>⚠ {t("status.partial")}</strong>
                        <span>{detailText(t, e.status_detail) ?? t("list.partialText")}</span>
                      </div>
                    ) : null}
                  </td>
                  <td>{formatDateTime(e.created_at, data.timeZone)}</td>
                  <td>{e.owner ?? "-"}</td>
                  <td className="export-actions">
                    {e.url ? (
                      <a className="btn btn-small btn-primary" href={e.url} download data-testid="export-download">
                        {t("list.download")}
                      </a>
                    ) : null}
                    {e.canDelete ? (
                      <Link className="btn btn-small btn-ghost" to={confirmLink(e.id)} data-testid="export-delete">
                        {t("list.delete")}
                      </Link>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
