import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ExportButton } from "~/components/exports/export-button";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import { CopyLinkButton } from "~/components/public-links/copy-link-button";
import { CheckboxMultiSelect } from "~/components/ui/checkbox-multi-select";
import { EmptyState } from "~/components/ui/empty-state";
import { Field } from "~/components/ui/field";
import { listContainerMeasurements, unassignedContainerMeasurements } from "~/models/container-measurement.server";
import {
  canEditContainers,
  containerFilter,
  getBillOfLading,
  listContainers,
  listContracts,
} from "~/models/container.server";
import { getExportLayout } from "~/models/export-layout.server";
import { listAssortments } from "~/models/lookup.server";
import { photoUrl } from "~/models/measurement-photo.server";
import { listShipments } from "~/models/shipment.server";
import { listTimberLookups } from "~/models/timber-lookups.server";
import { fieldErrors } from "~/utils/api.server";
import { requireAppUser } from "~/utils/auth.server";
import { db } from "~/utils/db.server";
import { i18nServer } from "~/utils/i18n.server";
import { measurementTypeName } from "~/utils/lookup-name";
import {
  BillOfLadingEditFormSchema,
  BillOfLadingFormSchema,
  ContainerEditFormSchema,
  ContainerFilterSchema,
  ContainersAddFormSchema,
  type ContainerFilter,
} from "~/utils/schemas/containers";
import { withZonedFilterDays } from "~/utils/schemas/timber";
import { formatsFor } from "~/utils/use-format";
import { useRememberMeasurementMode } from "~/utils/use-measurement-mode";
import { CONTAINER_SCREEN_FEATURE, handleContainerAction } from "./__containers.server";

// Container mode (docs/decisions/022-containers.md): the bill-of-lading filter, the bills with
// their container count, log count and volume, a bill opening to its containers, the row menu's
// archive / unarchive after a confirmation, the add and edit forms, and the container measurement
// cards with their batch actions. Links and plain forms throughout, so it works without JavaScript.
// Exports (docs/decisions/026-exports-and-labels.md, "Container exports"): the dashboard's Excel
// with the filter as applied, a bill's tally sheet and invoice (the latter only with the
// bill_of_lading_invoice entitlement) in its row menu, a container's log by log in its row, and
// the log by log of the ticked cards as a batch button.

export const handle = { i18n: ["containers", "timber", "exports", "lookups", "public"] };

const FILTER_KEYS = [
  "taken_at_start",
  "taken_at_end",
  "created_at_start",
  "created_at_end",
  "measured_at_start",
  "measured_at_end",
  "measurement_ids",
  "length_range_start",
  "length_range_end",
  "volume_range_start",
  "volume_range_end",
  "shipment_number",
  "trailer_license_plate",
  "truck_measurements_only",
  "truck_diameter_measurements_only",
  "archived",
] as const;
/** The multi-selects: repeated parameters (name=1&name=2, a plain form's way) or one comma list. */
const LIST_KEYS = [
  "measurement_type_ids",
  "wood_type_ids",
  "wood_quality_ids",
  "wood_characteristic_ids",
  "device_ids",
  "shipment_ids",
] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await requireAppUser(request);
  const recentMode = ctx.user.recent_measurement_mode;
  if (!ctx.features.includes(CONTAINER_SCREEN_FEATURE)) return json({ enabled: false as const, recentMode });
  const url = new URL(request.url);
  const values: Record<string, string> = {};
  for (const k of FILTER_KEYS) {
    const v = url.searchParams.get(k);
    if (v) values[k] = v;
  }
  // The panel's "only" choice (one of the two exclusive truck flags) as the call's flag.
  const only = url.searchParams.get("only");
  if (only === "truck_measurements_only" || only === "truck_diameter_measurements_only") values[only] = "true";
  for (const k of LIST_KEYS) {
    const v = url.searchParams
      .getAll(k)
      .flatMap((s) => s.split(","))
      .map((s) => s.trim())
      .filter(Boolean)
      .join(",");
    if (v) values[k] = v;
  }
  const page = url.searchParams.get("page");
  // Days are days on the user's calendar, as in POST /containers/container_filter and the export.
  const parsed = ContainerFilterSchema.safeParse(
    withZonedFilterDays({ ...values, page: page ?? undefined }, ctx.user.time_zone),
  );
  const filter: ContainerFilter = parsed.success ? parsed.data : { page: 1 };
  const num = (k: string) => Number(url.searchParams.get(k)) || null;
  const openId = num("open");
  const containerId = num("container");
  const [result, containers, contracts, assortments, lookups, shipments] = await Promise.all([
    containerFilter(db(), ctx, filter),
    listContainers(db(), ctx),
    listContracts(db(), ctx),
    listAssortments(db(), ctx),
    listTimberLookups(db(), ctx, await i18nServer.getFixedT(ctx.user.locale, "lookups")),
    listShipments(db(), ctx),
  ]);
  const open = openId ? await getBillOfLading(db(), ctx, openId).catch(() => null) : null;
  const cardsOf = containerId && containers.some((c) => c.id === containerId) ? containerId : null;
  const cards = cardsOf
    ? await listContainerMeasurements(db(), ctx, cardsOf)
    : await unassignedContainerMeasurements(db(), ctx);
  const editBillId = num("edit_bill");
  const editContainerId = num("edit_container");
  const editContainer =
    editContainerId && open ? (open.containers.find((c) => c.id === editContainerId) ?? null) : null;
  const confirmId = num("confirm");
  // The organisation's own layout of the bill-of-lading export (feature custom_export_layouts).
  const customLayout =
    ctx.features.includes("custom_export_layouts") && (await getExportLayout(db(), ctx, "bill_of_lading")) !== null;
  return json({
    customLayout,
    enabled: true as const,
    recentMode,
    origin: url.origin,
    canEdit: canEditContainers(ctx),
    canInvoice: ctx.features.includes("bill_of_lading_invoice"),
    values,
    filterErrors: parsed.success ? {} : fieldErrors(parsed.error),
    ...result,
    open,
    editBill: open && editBillId === open.id ? open : null,
    editContainer,
    confirm: confirmId ? (result.bill_of_ladings.find((b) => b.id === confirmId) ?? null) : null,
    containers,
    contracts,
    assortments: assortments.map((a) => ({ id: a.id, name: a.name })),
    filterLookups: {
      woodTypes: lookups.woodTypes.map((w) => ({ id: w.id, name: w.name })),
      woodQualities: lookups.woodQualities.map((w) => ({ id: w.id, name: w.name })),
      assortments: lookups.assortments.map((a) => ({ id: a.id, name: a.name })),
      devices: lookups.devices.map((d) => ({ id: d.id, name: d.name ?? `#${d.id}` })),
      shipments: shipments.map((s) => ({ id: s.id, name: s.number })),
    },
    cardsOf,
    cards: cards.map((m) => ({
      id: m.id,
      taken_at: m.taken_at,
      logs_count: m.logs_count,
      log_length: m.log_length,
      volume: m.volume,
      locked_at: m.locked_at,
      container_id: m.container_id,
      thumbnail: m.photo_thumbnail_key ? photoUrl("container", m.id, "thumbnail") : null,
    })),
    fmt: {
      locale: ctx.user.locale,
      timeZone: ctx.user.time_zone,
      precision: ctx.user.rounding_precision,
      unit: ctx.user.volume_unit,
    },
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const ctx = await requireAppUser(request);
  return handleContainerAction(request, ctx);
}

type ActionData = { intent: string; result?: SubmissionResult<string[]>; errors?: string[] } | undefined;

export default function ContainerMode() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation(["containers", "timber"]);
  useRememberMeasurementMode("container", data.recentMode);
  if (!data.enabled)
    return (
      <div className="page" data-testid="container-mode">
        <div className="page-header">
          <h1 className="page-title">{t("title")}</h1>
        </div>
        <div className="alert alert-warning" role="status" data-testid="billing-warning">
          <strong>{t("billing.title")}</strong> {t("billing.text")} <a href="/billing">{t("billing.link")}</a>
        </div>
      </div>
    );
  return <ContainerModePage />;
}

function ContainerModePage() {
  const data = useLoaderData<typeof loader>() as Extract<
    ReturnType<typeof useLoaderData<typeof loader>>,
    { enabled: true }
  >;
  const actionData = useActionData<ActionData>();
  const { t } = useTranslation(["containers", "timber", "lookups"]);
  const location = useLocation();
  const navigation = useNavigation();
  const f = formatsFor(data.fmt);
  const resultOf = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined);
  const hrefWith = (changes: Record<string, string | null>) => {
    const p = new URLSearchParams(location.search);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) p.delete(k);
      else p.set(k, v);
    }
    return `?${p}`;
  };
  const hasErrors = Object.keys(data.filterErrors).length > 0;
  const err = (k: string) => data.filterErrors[k]?.map((e) => t(e));

  return (
    <div
      className="page container-mode"
      aria-busy={navigation.state === "loading" || undefined}
      data-testid="container-mode"
    >
      <div className="page-header">
        <h1 className="page-title">{t("title")}</h1>
        <div className="page-actions">
          {data.bill_of_ladings.length > 0 ? (
            <ExportButton
              kind="excel"
              reportType="container_dashboard_excel"
              fields={hasErrors ? {} : data.values}
              label={t("actions.dashboardExcel")}
            />
          ) : null}
          {data.bill_of_ladings.length > 0 && data.customLayout ? (
            <ExportButton
              kind="excel"
              reportType="custom_bill_of_lading_excel"
              fields={hasErrors ? {} : data.values}
              label={t("exports:layouts.button")}
            />
          ) : null}
          {data.canEdit ? <AddBill result={resultOf("createBill")} /> : null}
        </div>
      </div>
      <details className="filters-toggle" open={hasErrors || Object.keys(data.values).length > 0 || undefined}>
        <summary className="btn" data-testid="toggle-filters">
          {t("filters.toggle")}
        </summary>
        <Form method="get" className="card filter-panel form-grid" data-testid="container-filters">
          {(
            [
              ["taken_at_start", "date"],
              ["taken_at_end", "date"],
              ["created_at_start", "date"],
              ["created_at_end", "date"],
              ["measured_at_start", "date"],
              ["measured_at_end", "date"],
              ["measurement_ids", "text"],
              ["length_range_start", "text"],
              ["length_range_end", "text"],
              ["volume_range_start", "text"],
              ["volume_range_end", "text"],
              ["shipment_number", "text"],
            ] as const
          ).map(([name, type]) => (
            <Field
              key={name}
              label={t(`filters.${name}`)}
              inputProps={{ name, type, defaultValue: data.values[name] ?? "" }}
              errors={err(name)}
            />
          ))}
          {(
            [
              ["measurement_type_ids", [0, 1, 2, 3].map((id) => ({ id, name: measurementTypeName(t, id) }))],
              ["wood_type_ids", data.filterLookups.woodTypes],
              ["wood_quality_ids", data.filterLookups.woodQualities],
              ["wood_characteristic_ids", data.filterLookups.assortments],
              ["device_ids", data.filterLookups.devices],
              ["shipment_ids", data.filterLookups.shipments],
            ] as const
          ).map(([name, options]) => (
            <div key={name}>
              <CheckboxMultiSelect
                id={`cf-${name}`}
                name={name}
                label={t(`filters.${name}`)}
                options={options}
                selected={data.values[name] ? data.values[name].split(",") : []}
                invalid={!!data.filterErrors[name]?.length}
              />
              {err(name) ? (
                <ul className="field-errors" id={`cf-${name}-error`}>
                  {err(name)!.map((e) => (
                    <li key={e}>{e}</li>
                  ))}
                </ul>
              ) : null}
            </div>
          ))}
          <Field
            label={t("filters.trailer_license_plate")}
            inputProps={{
              name: "trailer_license_plate",
              type: "text",
              defaultValue: data.values.trailer_license_plate ?? "",
            }}
            errors={err("trailer_license_plate")}
          />
          <fieldset className="filter-only" data-testid="container-filter-only">
            <legend>{t("filters.only")}</legend>
            {/* The spec's two "only" checkboxes exclude each other: radio buttons of one choice. */}
            {(["", "truck_measurements_only", "truck_diameter_measurements_only"] as const).map((k) => (
              <label key={k || "all"} className="checkbox">
                <input
                  type="radio"
                  name="only"
                  value={k}
                  defaultChecked={
                    k === ""
                      ? !data.values.truck_measurements_only && !data.values.truck_diameter_measurements_only
                      : data.values[k] === "true"
                  }
                  data-testid={`only-${k || "all"}`}
                />
                {t(k ? `filters.${k}` : "filters.allKinds")}
              </label>
            ))}
            {err("truck_diameter_measurements_only") ? (
              <ul className="field-errors">
                {err("truck_diameter_measurements_only")!.map((e) => (
                  <li key={e}>{e}</li>
                ))}
              </ul>
            ) : null}
          </fieldset>
          <label className="checkbox">
            <input type="checkbox" name="archived" value="true" defaultChecked={data.values.archived === "true"} />
            {t("filters.archived")}
          </label>
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" data-testid="apply-filters">
              {t("filters.apply")}
            </button>
            <Link className="btn" to="?">
              {t("filters.clear")}
            </Link>
          </div>
        </Form>
      </details>

      {data.confirm ? (
        <Form method="post" className="alert alert-warning" data-testid="confirm-archive">
          <input type="hidden" name="bill_id" value={data.confirm.id} />
          <p>{t(data.confirm.archived ? "confirm.unarchive" : "confirm.archive", { name: data.confirm.name })}</p>
          <button
            type="submit"
            name="intent"
            value={data.confirm.archived ? "unarchive" : "archive"}
            className="btn btn-danger"
            data-testid="confirm-archive-yes"
          >
            {t(data.confirm.archived ? "actions.unarchive" : "actions.archive")}
          </button>{" "}
          <Link className="btn" to={hrefWith({ confirm: null })}>
            {t("actions.cancel")}
          </Link>
        </Form>
      ) : null}

      {data.bill_of_ladings.length === 0 ? (
        <EmptyState title={t("empty.title")} text={t("empty.text")} testId="bills-empty" />
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="bills-table">
            <thead>
              <tr>
                <th scope="col">{t("table.bill")}</th>
                <th scope="col" className="num">
                  {t("table.containers")}
                </th>
                <th scope="col" className="num">
                  {t("table.logs")}
                </th>
                <th scope="col" className="num">
                  {t("table.volume")}
                </th>
                <th scope="col">{t("table.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {data.bill_of_ladings.map((b) => {
                const isOpen = data.open?.id === b.id;
                return [
                  <tr key={b.id} data-testid={`bill-${b.id}`}>
                    <th scope="row">
                      <Link
                        to={hrefWith({ open: isOpen ? null : String(b.id), edit_bill: null, edit_container: null })}
                        aria-expanded={isOpen}
                        data-testid={`expand-bill-${b.id}`}
                      >
                        {b.container_count > 0 ? (isOpen ? "▾ " : "▸ ") : ""}
                        {b.name}
                      </Link>
                    </th>
                    <td className="num">{f.count(b.container_count)}</td>
                    <td className="num">{f.count(b.log_count)}</td>
                    <td className="num">{f.volume(b.volume)}</td>
                    <td>
                      <details className="row-menu">
                        <summary className="btn btn-small" data-testid={`bill-menu-${b.id}`}>
                          {t("table.menu")}
                        </summary>
                        <ul className="menu">
                          {data.canEdit ? (
                            <li>
                              <Link to={hrefWith({ confirm: String(b.id) })} data-testid={`archive-${b.id}`}>
                                {t(b.archived ? "actions.unarchive" : "actions.archive")}
                              </Link>
                            </li>
                          ) : null}
                          {data.canEdit ? (
                            <li>
                              <Link
                                to={hrefWith({ open: String(b.id), edit_bill: String(b.id) })}
                                data-testid={`edit-bill-${b.id}`}
                              >
                                {t("actions.editBill")}
                              </Link>
                            </li>
                          ) : null}
                          {b.token ? (
                            <li>
                              <a href={`/public_bill_of_lading/${b.token}`} data-testid={`public-bill-${b.id}`}>
                                {t("actions.publicLink")}
                              </a>
                            </li>
                          ) : null}
                          <li>
                            <ExportButton
                              kind="excel"
                              reportType="bill_of_lading_tally_sheet_excel"
                              fields={{ bill_of_lading_id: String(b.id) }}
                              label={t("actions.tallySheet")}
                            />
                          </li>
                          {data.canInvoice ? (
                            <li>
                              <ExportButton
                                kind="excel"
                                reportType="bill_of_lading_invoice_excel"
                                fields={{ bill_of_lading_id: String(b.id) }}
                                label={t("actions.invoice")}
                              />
                            </li>
                          ) : null}
                        </ul>
                      </details>
                    </td>
                  </tr>,
                  isOpen && data.open ? (
                    <tr key={`${b.id}-open`} className="row-detail">
                      <td colSpan={5}>
                        {data.editBill ? (
                          <EditBill
                            bill={data.editBill}
                            origin={data.origin}
                            contracts={data.contracts}
                            assortments={data.assortments}
                            result={resultOf("editBill")}
                          />
                        ) : null}
                        <table className="table" data-testid="containers-table">
                          <thead>
                            <tr>
                              <th scope="col">{t("table.container")}</th>
                              <th scope="col">{t("fields.seal_number")}</th>
                              <th scope="col" className="num">
                                {t("table.measurements")}
                              </th>
                              <th scope="col" className="num">
                                {t("table.logs")}
                              </th>
                              <th scope="col" className="num">
                                {t("table.volume")}
                              </th>
                              <th scope="col">{t("table.actions")}</th>
                            </tr>
                          </thead>
                          <tbody>
                            {data.open.containers.map((c) => (
                              <tr key={c.id} data-testid={`container-${c.id}`}>
                                <th scope="row">
                                  <Link to={hrefWith({ container: String(c.id) })}>{c.name}</Link>
                                </th>
                                <td>{c.seal_number ?? "–"}</td>
                                <td className="num">{f.count(c.measurement_count)}</td>
                                <td className="num">{f.count(c.log_count)}</td>
                                <td className="num">{f.volume(c.volume)}</td>
                                <td>
                                  {data.canEdit ? (
                                    <Link
                                      className="btn btn-small"
                                      to={hrefWith({ edit_container: String(c.id) })}
                                      data-testid={`edit-container-${c.id}`}
                                    >
                                      {t("actions.edit")}
                                    </Link>
                                  ) : null}{" "}
                                  {c.token ? (
                                    <a href={`/public_container/${c.token}`}>{t("actions.publicLink")}</a>
                                  ) : null}
                                  {c.measurement_count > 0 ? (
                                    <ExportButton
                                      kind="excel"
                                      reportType="container_log_by_log_excel"
                                      fields={{ container_id: String(c.id) }}
                                      label={t("actions.logByLog")}
                                      buttonClassName="btn btn-small"
                                    />
                                  ) : null}
                                </td>
                              </tr>
                            ))}
                          </tbody>
                        </table>
                        {data.editContainer ? (
                          <EditContainer
                            container={data.editContainer}
                            origin={data.origin}
                            bills={data.bill_of_ladings.map((x) => ({ id: x.id, name: x.name }))}
                            result={resultOf("editContainer")}
                          />
                        ) : null}
                        {data.canEdit ? <AddContainers billId={b.id} result={resultOf("addContainers")} /> : null}
                      </td>
                    </tr>
                  ) : null,
                ];
              })}
            </tbody>
          </table>
        </div>
      )}
      {data.meta.total_pages > 1 ? (
        <nav className="pager" aria-label={t("table.pages")}>
          {data.meta.page > 1 ? (
            <Link className="btn btn-small" to={hrefWith({ page: String(data.meta.page - 1) })}>
              {t("table.previous")}
            </Link>
          ) : null}
          <span className="muted">{t("table.page", { page: data.meta.page, pages: data.meta.total_pages })}</span>
          {data.meta.page < data.meta.total_pages ? (
            <Link className="btn btn-small" to={hrefWith({ page: String(data.meta.page + 1) })}>
              {t("table.next")}
            </Link>
          ) : null}
        </nav>
      ) : null}

      <section className="card" aria-label={t("cards.title")} data-testid="measurement-cards">
        <h2>
          {data.cardsOf
            ? t("cards.ofContainer", { name: data.containers.find((c) => c.id === data.cardsOf)?.name ?? "" })
            : t("cards.unassigned")}
        </h2>
        {data.cardsOf ? <Link to={hrefWith({ container: null })}>{t("cards.showUnassigned")}</Link> : null}
        {actionData?.intent === "batch" && actionData.errors ? (
          <p className="alert alert-danger" role="alert" data-testid="batch-errors">
            {actionData.errors.map((e) => t(e)).join(". ")}
          </p>
        ) : null}
        {data.cards.length === 0 ? (
          <p className="muted">{t("cards.none")}</p>
        ) : (
          <Form method="post" data-testid="batch-form">
            <input type="hidden" name="intent" value="batch" />
            <ul className="card-grid">
              {data.cards.map((m) => (
                <li key={m.id} className="measurement-card" data-testid={`card-${m.id}`}>
                  <label className="checkbox">
                    <input type="checkbox" name="measurement_ids" value={m.id} data-testid={`select-${m.id}`} />
                    <Link to={`/measurements/container/${m.id}`}>#{m.id}</Link>
                  </label>
                  {m.thumbnail ? <img src={m.thumbnail} alt="" width={80} height={60} loading="lazy" /> : null}
                  <div className="muted">{f.dateTime(m.taken_at)}</div>
                  <div>
                    {t("cards.logs", { count: m.logs_count })} · {f.volume(m.volume)}
                  </div>
                  {m.locked_at ? (
                    <span className="badge badge-secondary" data-testid={`locked-${m.id}`}>
                      {t("cards.locked")}
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
            <div className="form-actions">
              <button
                type="submit"
                name="batch_action"
                value="export"
                className="btn"
                data-testid="batch-export-log-by-log"
              >
                {t("actions.exportSelected")}
              </button>
            </div>
            {data.canEdit ? (
              <div className="form-actions batch-actions">
                <label className="field">
                  <span className="field-label">{t("batch.container")}</span>
                  <select name="target_container_id" defaultValue={data.cardsOf ?? ""} data-testid="batch-container">
                    <option value="">{t("batch.noContainer")}</option>
                    {data.containers.map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.name}
                      </option>
                    ))}
                  </select>
                </label>
                <button type="submit" name="batch_action" value="assign" className="btn" data-testid="batch-assign">
                  {t("batch.assign")}
                </button>
                <button type="submit" name="batch_action" value="lock" className="btn" data-testid="batch-lock">
                  {t("batch.lock")}
                </button>
                <button type="submit" name="batch_action" value="unlock" className="btn" data-testid="batch-unlock">
                  {t("batch.unlock")}
                </button>
                <button
                  type="submit"
                  name="batch_action"
                  value="delete"
                  className="btn btn-danger"
                  data-testid="batch-delete"
                >
                  {t("batch.delete")}
                </button>
              </div>
            ) : null}
          </Form>
        )}
      </section>
    </div>
  );
}

function AddBill({ result }: { result?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("containers");
  const [form, fields] = useForm({
    id: "add-bill",
    lastResult: result,
    constraint: getZodConstraint(BillOfLadingFormSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: BillOfLadingFormSchema }),
  });
  return (
    <details className="dialog" open={result ? true : undefined}>
      <summary className="btn btn-primary" data-testid="add-bill">
        {t("actions.addBill")}
      </summary>
      <Form method="post" className="card" {...getFormProps(form)} data-testid="add-bill-form">
        <input type="hidden" name="intent" value="createBill" />
        <Field
          label={t("fields.name")}
          inputProps={getInputProps(fields.name, { type: "text" })}
          errors={fields.name.errors?.map((e) => t(e))}
        />
        <button type="submit" className="btn btn-primary" data-testid="add-bill-submit">
          {t("actions.create")}
        </button>
      </Form>
    </details>
  );
}

function EditBill({
  bill,
  contracts,
  assortments,
  result,
  origin,
}: {
  origin: string;
  bill: {
    id: number;
    token: string | null;
    name: string;
    contract_id: number | null;
    wood_characteristic_id: number | null;
    archived: boolean;
  };
  contracts: Array<{ id: number; name: string }>;
  assortments: Array<{ id: number; name: string }>;
  result?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("containers");
  const [form, fields] = useForm({
    id: `edit-bill-${bill.id}`,
    lastResult: result,
    constraint: getZodConstraint(BillOfLadingEditFormSchema),
    defaultValue: {
      name: bill.name,
      contract_id: bill.contract_id ? String(bill.contract_id) : "",
      wood_characteristic_id: bill.wood_characteristic_id ? String(bill.wood_characteristic_id) : "",
      archived: bill.archived ? "true" : "",
    },
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: BillOfLadingEditFormSchema }),
  });
  return (
    <div className="card" data-testid="edit-bill">
      <Form method="post" {...getFormProps(form)} className="form-grid">
        <input type="hidden" name="bill_id" value={bill.id} />
        <Field
          label={t("fields.name")}
          inputProps={getInputProps(fields.name, { type: "text" })}
          errors={fields.name.errors?.map((e) => t(e))}
        />
        <label className="field">
          <span className="field-label">{t("fields.contract")}</span>
          <select name={fields.contract_id.name} defaultValue={fields.contract_id.initialValue as string}>
            <option value="">–</option>
            {contracts.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
          {fields.contract_id.errors ? <span className="field-error">{t(fields.contract_id.errors[0]!)}</span> : null}
        </label>
        <label className="field">
          <span className="field-label">{t("fields.assortment")}</span>
          <select
            name={fields.wood_characteristic_id.name}
            defaultValue={fields.wood_characteristic_id.initialValue as string}
          >
            <option value="">–</option>
            {assortments.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <label className="checkbox">
          <input type="checkbox" name={fields.archived.name} value="true" defaultChecked={bill.archived} />
          {t("fields.archived")}
        </label>
        <button type="submit" name="intent" value="editBill" className="btn btn-primary" data-testid="edit-bill-save">
          {t("actions.save")}
        </button>
      </Form>
      <PublicLinkRow
        url={bill.token ? `${origin}/public_bill_of_lading/${bill.token}` : null}
        idField={{ name: "bill_id", value: bill.id }}
        intent="rotateToken"
        testId="bill"
      />
    </div>
  );
}

function AddContainers({ billId, result }: { billId: number; result?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("containers");
  const [form, fields] = useForm({
    id: `add-containers-${billId}`,
    lastResult: result,
    constraint: getZodConstraint(ContainersAddFormSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ContainersAddFormSchema }),
  });
  return (
    <Form method="post" className="card form-grid" {...getFormProps(form)} data-testid="add-containers-form">
      <h3>{t("actions.addContainers")}</h3>
      <input type="hidden" name="intent" value="addContainers" />
      <input type="hidden" name="bill_of_lading_id" value={billId} />
      <div className="field">
        <label htmlFor={fields.names.id}>{t("fields.names")}</label>
        <textarea {...getTextareaProps(fields.names)} rows={4} data-testid="container-names" />
        <div className="field-hint">{t("fields.namesHint")}</div>
        {fields.names.errors ? (
          <span className="field-error">{fields.names.errors.map((e) => t(e)).join(" ")}</span>
        ) : null}
      </div>
      <Field
        label={t("fields.tare_weight")}
        inputProps={{ ...getInputProps(fields.tare_weight, { type: "text" }), inputMode: "decimal" }}
        errors={fields.tare_weight.errors?.map((e) => t(e))}
      />
      <Field
        label={t("fields.net_weight")}
        inputProps={{ ...getInputProps(fields.net_weight, { type: "text" }), inputMode: "decimal" }}
        errors={fields.net_weight.errors?.map((e) => t(e))}
      />
      <button type="submit" className="btn btn-primary" data-testid="add-containers-submit">
        {t("actions.addContainers")}
      </button>
    </Form>
  );
}

function EditContainer({
  container,
  bills,
  result,
  origin,
}: {
  origin: string;
  container: {
    id: number;
    token: string | null;
    name: string;
    bill_of_lading_id: number | null;
    seal_number: string | null;
    weight: string | null;
    width: string | null;
    height: string | null;
    tare_weight: number | null;
    net_weight: number | null;
  };
  bills: Array<{ id: number; name: string }>;
  result?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("containers");
  const str = (v: string | number | null) => (v === null ? "" : String(v));
  const [form, fields] = useForm({
    id: `edit-container-${container.id}`,
    lastResult: result,
    constraint: getZodConstraint(ContainerEditFormSchema),
    defaultValue: {
      name: container.name,
      bill_of_lading_id: str(container.bill_of_lading_id),
      seal_number: str(container.seal_number),
      weight: str(container.weight),
      width: str(container.width),
      height: str(container.height),
      tare_weight: str(container.tare_weight),
      net_weight: str(container.net_weight),
    },
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ContainerEditFormSchema }),
  });
  return (
    <>
      <Form method="post" className="card form-grid" {...getFormProps(form)} data-testid="edit-container-form">
        <h3>{t("actions.editContainer", { name: container.name })}</h3>
        <input type="hidden" name="intent" value="editContainer" />
        <input type="hidden" name="container_id" value={container.id} />
        {result && Object.keys(result.error ?? {}).length ? (
          <p className="alert alert-danger" role="alert">
            {t("toast.containerFailed")}
          </p>
        ) : null}
        <Field
          label={t("fields.name")}
          inputProps={getInputProps(fields.name, { type: "text" })}
          errors={fields.name.errors?.map((e) => t(e))}
        />
        <label className="field">
          <span className="field-label">{t("fields.bill")}</span>
          <select name={fields.bill_of_lading_id.name} defaultValue={fields.bill_of_lading_id.initialValue as string}>
            <option value="">–</option>
            {bills.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}
              </option>
            ))}
          </select>
        </label>
        {(["seal_number", "weight", "width", "height"] as const).map((k) => (
          <Field
            key={k}
            label={t(`fields.${k}`)}
            inputProps={getInputProps(fields[k], { type: "text" })}
            errors={fields[k].errors?.map((e) => t(e))}
          />
        ))}
        {(["tare_weight", "net_weight"] as const).map((k) => (
          <Field
            key={k}
            label={t(`fields.${k}`)}
            inputProps={{ ...getInputProps(fields[k], { type: "text" }), inputMode: "decimal" }}
            errors={fields[k].errors?.map((e) => t(e))}
          />
        ))}
        <button type="submit" className="btn btn-primary" data-testid="edit-container-save">
          {t("actions.save")}
        </button>
      </Form>
      <PublicLinkRow
        url={container.token ? `${origin}/public_container/${container.token}` : null}
        idField={{ name: "container_id", value: container.id }}
        intent="rotateContainerToken"
        testId="container"
      />
    </>
  );
}

/**
 * A bill's or a container's public link on its edit panel: the whole address (selectable, so it
 * can be copied without JavaScript), Copy, Open, and "Replace the public link" (the old link
 * stops at once). Editors only see the panel.
 */
function PublicLinkRow({
  url,
  idField,
  intent,
  testId,
}: {
  url: string | null;
  idField: { name: string; value: number };
  intent: string;
  testId: string;
}) {
  const { t } = useTranslation(["containers", "public"]);
  return (
    <div className="card public-link-row" data-testid={`${testId}-public-link`}>
      <span className="field-label">{t("actions.publicLink")}</span>
      {url ? (
        <>
          <input
            type="text"
            readOnly
            value={url}
            aria-label={t("public:link.address")}
            onFocus={(e) => e.currentTarget.select()}
            data-testid={`${testId}-public-url`}
          />
          <CopyLinkButton
            url={url}
            label={t("public:link.copy")}
            copiedLabel={t("public:link.copied")}
            testId={`${testId}-copy-link`}
          />
          <a className="btn" href={url} target="_blank" rel="noreferrer" data-testid={`${testId}-open-link`}>
            {t("public:link.open")}
          </a>
        </>
      ) : (
        <span className="muted">{t("public:link.notShared")}</span>
      )}
      <Form method="post">
        <input type="hidden" name={idField.name} value={idField.value} />
        <button
          type="submit"
          name="intent"
          value={intent}
          className="btn"
          data-testid={testId === "bill" ? "rotate-token" : `rotate-${testId}-token`}
        >
          {t("actions.rotateToken")}
        </button>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
