import { getFormProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { Form, Link, useActionData, useLocation } from "@remix-run/react";
import { Fragment, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ExportButton } from "~/components/exports/export-button";
import { InventoryActionForm } from "~/components/inventories/confirm-form";
import { ExpandToggle, Pager } from "~/components/measurements/pager";
import { CopyLinkButton } from "~/components/public-links/copy-link-button";
import { Icon } from "~/components/ui/icon";
import { SelectField } from "~/components/ui/select-field";
import { measurementTypeName, storageStateName } from "~/utils/lookup-name";
import { REPORT_FORMULA_KEYS } from "~/utils/schemas/reports";
import { BulkBarFormSchema } from "~/utils/schemas/timber";
import { useFormat } from "~/utils/use-format";
import { useHydrated } from "~/utils/use-hydrated";

export interface StorageRow {
  id: number;
  name: string;
  storage_state_id: number;
  logs_count: number;
  volume: number;
  measurements_count: number;
  token: string | null;
  is_default: boolean;
  canEdit: boolean;
}
export interface ListMeasurement {
  id: number;
  taken_at: string;
  logs_count: number;
  volume: number;
  log_length: number | null;
  measurement_type_id: number;
  inventory_id: number | null;
  photo_status: number;
  photo_thumbnail: string | null;
  has_photo: boolean;
  type: string;
}
export interface Expanded {
  storageId: number;
  page: number;
  totalPages: number;
  totalCount: number;
  measurements: ListMeasurement[];
}

/** Which wood-yard exports the row menu offers (features wood_yard_log_excel, wood_yard_summary_excel). */
export interface WoodYardExports {
  log: boolean;
  summary: boolean;
}
const NO_WOOD_YARD: WoodYardExports = { log: false, summary: false };

const BADGE: Record<number, string> = { 1: "warning", 2: "none", 3: "secondary", 4: "success", 5: "info", 6: "danger" };

export function StorageStateBadge({ state }: { state: number }) {
  const { t } = useTranslation("timber");
  return (
    <span className={`badge badge-state-${BADGE[state] ?? "none"}`}>
      {BADGE[state] ? storageStateName(t, state) : "ENUM_ERROR"}
    </span>
  );
}

/**
 * The storages table: a row expands (a link, so it works without JavaScript) to its measurements
 * grouped by month, 5 per page; selected measurements get the bulk action bar.
 */
export function StoragesTable({
  storages,
  expanded,
  hrefWith,
  formatVolume,
  formatDate,
  monthLabel,
  allStorages,
  isAdmin,
  origin,
  inventories = false,
  mixedStackReports = [],
  woodYard = NO_WOOD_YARD,
  reports = null,
}: {
  storages: StorageRow[];
  expanded: Expanded | null;
  hrefWith: (changes: Record<string, string | null>) => string;
  formatVolume: (v: number) => string;
  formatDate: (iso: string) => string;
  monthLabel: (iso: string) => string;
  allStorages: Array<{ id: number; name: string }>;
  isAdmin: boolean;
  origin: string;
  /** The organisation has the inventories feature: the menu offers "Create inventory". */
  inventories?: boolean;
  /** The organisation's mixed stack reports, when it has the feature and the caller may edit them. */
  mixedStackReports?: Array<{ id: number; name: string }>;
  /** The wood-yard exports the organisation's features allow (each its own flag). */
  woodYard?: WoodYardExports;
  /** Reports to add to (feature reports, admins); null hides the report actions. */
  reports?: Array<{ id: number; name: string }> | null;
}) {
  const { t } = useTranslation("timber");
  const format = useFormat();
  const [selected, setSelected] = useState<number[]>([]);
  const hydrated = useHydrated();
  // A new location (e.g. the redirect after a bulk action) remounts the list: the selection clears.
  const locationKey = useLocation().key;

  return (
    <div className="table-wrap">
      <table className="table storages-table" data-testid="storages-table">
        <thead>
          <tr>
            <th aria-label={t("table.expand")} />
            <th>{t("table.storage")}</th>
            <th>{t("table.state")}</th>
            <th className="num">{t("table.measurements")}</th>
            <th className="num">{t("table.logs")}</th>
            <th className="num">{t("table.volume")}</th>
            <th aria-label={t("table.actions")} />
          </tr>
        </thead>
        <tbody>
          {storages.map((s) => {
            const open = expanded?.storageId === s.id;
            const empty = s.logs_count === 0 && s.volume === 0;
            return (
              <Fragment key={s.id}>
                <tr data-testid={`storage-${s.id}`} className={open ? "row-open" : undefined}>
                  <td>
                    <ExpandToggle storageId={s.id} open={open} empty={empty} hrefWith={hrefWith} />
                  </td>
                  <td>
                    {s.name}
                    {s.is_default ? <span className="muted"> · {t("table.default")}</span> : null}
                  </td>
                  <td>
                    <StorageStateBadge state={s.storage_state_id} />
                  </td>
                  <td className="num">{format.count(s.measurements_count)}</td>
                  <td className="num" data-testid={`storage-${s.id}-logs`}>
                    {format.count(s.logs_count)}
                  </td>
                  <td className="num" data-testid={`storage-${s.id}-volume`}>
                    {formatVolume(s.volume)}
                  </td>
                  <td>
                    <RowMenu
                      storage={s}
                      isAdmin={isAdmin}
                      origin={origin}
                      prerender={open}
                      inventories={inventories}
                      woodYard={woodYard}
                      reports={reports}
                    />
                  </td>
                </tr>
                {open && expanded ? (
                  <tr className="row-detail">
                    <td colSpan={7}>
                      <MeasurementsList
                        key={locationKey}
                        expanded={expanded}
                        hrefWith={hrefWith}
                        formatVolume={formatVolume}
                        formatDate={formatDate}
                        monthLabel={monthLabel}
                        selected={selected}
                        setSelected={setSelected}
                        hydrated={hydrated}
                        allStorages={allStorages.filter((x) => x.id !== s.id)}
                        canEdit={s.canEdit}
                        mixedStackReports={mixedStackReports}
                        reports={reports}
                      />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The row's action menu. Its items are rendered when the menu is first opened (300 storages'
 * menus would double the page), and up front for the expanded row, so without JavaScript the
 * menu works once its row is expanded.
 */
function RowMenu({
  storage,
  isAdmin,
  origin,
  prerender,
  inventories,
  woodYard,
  reports,
}: {
  storage: StorageRow;
  isAdmin: boolean;
  origin: string;
  prerender: boolean;
  inventories: boolean;
  woodYard: WoodYardExports;
  reports: Array<{ id: number; name: string }> | null;
}) {
  const { t } = useTranslation(["timber", "inventories", "exports"]);
  const [opened, setOpened] = useState(false);
  const link = storage.token ? `${origin}/public_storage/${storage.token}` : null;
  return (
    <details
      className="dropdown row-menu"
      data-testid={`storage-menu-${storage.id}`}
      onToggle={(e) => (e.currentTarget.open ? setOpened(true) : undefined)}
    >
      <summary className="btn btn-ghost btn-small" aria-label={t("menu.open", { name: storage.name })}>
        ⋯
      </summary>
      {opened || prerender ? (
        <div className="dropdown-menu">
          {storage.canEdit ? (
            <>
              <Link className="dropdown-item" to={`/measurements/timber/manual?storage_id=${storage.id}`}>
                {t("menu.manual")}
              </Link>
              <Link className="dropdown-item" to={`/measurements/timber/upload?storage_id=${storage.id}`}>
                {t("menu.upload")}
              </Link>
              {inventories ? (
                <InventoryActionForm
                  intent="create"
                  fields={{ storage_id: storage.id }}
                  question={t("inventories:menu.question", { name: storage.name })}
                  className="dropdown-form"
                >
                  <button type="submit" className="dropdown-item" data-testid={`create-inventory-${storage.id}`}>
                    {t("inventories:menu.create")}
                  </button>
                </InventoryActionForm>
              ) : null}
            </>
          ) : null}
          {woodYard.log ? (
            <ExportButton
              kind="excel"
              reportType="wood_yard_log_excel"
              storageId={storage.id}
              label={t("exports:button.woodYardLog")}
              className="dropdown-form"
              buttonClassName="dropdown-item"
            />
          ) : null}
          {woodYard.summary ? (
            <ExportButton
              kind="excel"
              reportType="wood_yard_summary_excel"
              storageId={storage.id}
              label={t("exports:button.woodYardSummary")}
              className="dropdown-form"
              buttonClassName="dropdown-item"
            />
          ) : null}
          {reports ? <ReportMenuItems storageId={storage.id} reports={reports} /> : null}
          {isAdmin ? (
            <Link className="dropdown-item" to={`/storages/${storage.id}`}>
              {t("menu.edit")}
            </Link>
          ) : null}
          {link ? (
            <CopyLinkButton
              url={link}
              label={t("menu.copyLink")}
              copiedLabel={t("menu.copied")}
              className="dropdown-item"
              testId={`copy-link-${storage.id}`}
            />
          ) : isAdmin ? (
            <Form method="post" className="dropdown-form">
              <input type="hidden" name="intent" value="public-link-create" />
              <input type="hidden" name="storage_id" value={storage.id} />
              <button type="submit" className="dropdown-item">
                {t("menu.createLink")}
              </button>
            </Form>
          ) : null}
          {isAdmin ? (
            storage.is_default ? (
              <p className="dropdown-text alert-warning" role="note">
                {t("menu.defaultNoDelete")}
              </p>
            ) : (
              <Form
                method="post"
                className="dropdown-form"
                onSubmit={(e) => {
                  if (!window.confirm(t("menu.confirmDelete", { name: storage.name }))) e.preventDefault();
                }}
              >
                <input type="hidden" name="intent" value="delete-storage" />
                <input type="hidden" name="storage_id" value={storage.id} />
                <button type="submit" className="dropdown-item danger">
                  {t("menu.delete")}
                </button>
              </Form>
            )
          ) : null}
        </div>
      ) : null}
    </details>
  );
}

function MeasurementsList({
  expanded,
  hrefWith,
  formatVolume,
  formatDate,
  monthLabel,
  selected,
  setSelected,
  hydrated,
  allStorages,
  canEdit,
  mixedStackReports,
  reports,
}: {
  expanded: Expanded;
  hrefWith: (changes: Record<string, string | null>) => string;
  formatVolume: (v: number) => string;
  formatDate: (iso: string) => string;
  monthLabel: (iso: string) => string;
  selected: number[];
  setSelected: (ids: number[]) => void;
  hydrated: boolean;
  allStorages: Array<{ id: number; name: string }>;
  canEdit: boolean;
  mixedStackReports: Array<{ id: number; name: string }>;
  reports: Array<{ id: number; name: string }> | null;
}) {
  const { t } = useTranslation("timber");
  const groups: Array<{ month: string; items: ListMeasurement[] }> = [];
  for (const m of expanded.measurements) {
    const month = monthLabel(m.taken_at);
    const last = groups[groups.length - 1];
    if (last?.month === month) last.items.push(m);
    else groups.push({ month, items: [m] });
  }
  // A refused bulk post (422) comes back with its errors and the ticks and choices it had.
  const refused = useActionData() as { intent?: string; result?: SubmissionResult<string[]> } | undefined;
  const [form, fields] = useForm({
    id: "bulk",
    lastResult: refused?.intent === "bulk" ? refused.result : undefined,
    constraint: getZodConstraint(BulkBarFormSchema),
  });
  const ticked = ([] as unknown[]).concat(fields.measurement_ids.initialValue ?? []).map(String);
  const showBar = canEdit && (!hydrated || selected.length > 0 || !!fields.measurement_ids.errors);
  // The checkboxes stay uncontrolled (a box ticked before hydration keeps its tick); the
  // selection is read back from the form whenever it changes or the page of the list does.
  const formRef = useRef<HTMLFormElement>(null);
  const readSelection = () =>
    setSelected(
      [...(formRef.current?.querySelectorAll<HTMLInputElement>('input[name="measurement_ids"]:checked') ?? [])].map(
        (i) => Number(i.value),
      ),
    );
  // eslint-disable-next-line react-hooks/exhaustive-deps -- re-read the checked boxes when another storage or page is shown
  useEffect(readSelection, [expanded.storageId, expanded.page]);
  return (
    <Form
      method="post"
      className="measurements-list"
      data-testid="measurements-list"
      ref={formRef}
      {...getFormProps(form)}
    >
      {groups.map((g) => (
        <section key={g.month} className="month-group">
          <h3 className="month-title">{g.month}</h3>
          <ul className="measurement-cards">
            {g.items.map((m) => (
              <li key={m.id} className="measurement-card" data-testid={`measurement-${m.id}`}>
                {canEdit ? (
                  <input
                    type="checkbox"
                    name={fields.measurement_ids.name}
                    value={m.id}
                    defaultChecked={ticked.includes(String(m.id))}
                    disabled={m.inventory_id !== null}
                    title={m.inventory_id !== null ? t("bulk.inInventory") : undefined}
                    aria-label={t("bulk.select", { id: m.id })}
                    onChange={readSelection}
                    data-testid={`select-${m.id}`}
                  />
                ) : null}
                <Link to={`/measurements/timber/${m.id}`} className="measurement-link">
                  {m.photo_thumbnail ? (
                    <img
                      className="thumb"
                      src={m.photo_thumbnail}
                      alt={t("photoAlt", { id: m.id })}
                      width={80}
                      height={80}
                      loading="lazy"
                    />
                  ) : (
                    <span
                      className="thumb thumb-pending"
                      data-testid="thumb-pending"
                      title={t(m.has_photo ? (m.photo_status === 3 ? "photoFailed" : "photoProcessing") : "noPhoto")}
                    >
                      <Icon name="photo" />
                    </span>
                  )}
                  <span className="measurement-meta">
                    <strong>{t("measurement", { id: m.id })}</strong>
                    <span>{formatDate(m.taken_at)}</span>
                    <span>
                      {measurementTypeName(t, m.measurement_type_id)} · {t("logsCount", { count: m.logs_count })}
                    </span>
                  </span>
                  <span className="measurement-volume" data-testid={`measurement-${m.id}-volume`}>
                    {formatVolume(m.volume)}
                  </span>
                </Link>
                {m.inventory_id !== null ? <span className="badge">{t("locked")}</span> : null}
              </li>
            ))}
          </ul>
        </section>
      ))}
      <Pager page={expanded.page} totalPages={expanded.totalPages} hrefWith={hrefWith} />
      {showBar ? (
        <div className="bulk-bar" role="region" aria-label={t("bulk.label")} data-testid="bulk-bar">
          {hydrated ? <span>{t("bulk.selected", { count: selected.length })}</span> : null}
          {fields.measurement_ids.errors ? (
            <ul className="field-errors" data-testid="bulk-errors">
              {fields.measurement_ids.errors.map((e) => (
                <li key={e}>{t(e)}</li>
              ))}
            </ul>
          ) : null}
          <SelectField
            label={t("bulk.target")}
            placeholder={t("bulk.target")}
            options={allStorages.map((s) => [s.id, s.name])}
            selectProps={{ ...getSelectProps(fields.target_storage_id), id: "bulk-target" }}
            errors={fields.target_storage_id.errors?.map((e) => t(e))}
          />
          <button type="submit" name="intent" value="move" className="btn btn-small" data-testid="bulk-move">
            {t("bulk.move")}
          </button>
          <button
            type="submit"
            name="intent"
            value="delete"
            className="btn btn-small danger"
            data-testid="bulk-delete"
            onClick={(e) => {
              if (!window.confirm(t("bulk.confirmDelete", { count: selected.length }))) e.preventDefault();
            }}
          >
            {t("bulk.delete")}
          </button>
          {mixedStackReports.length ? (
            <MixedStackBulk
              reports={mixedStackReports}
              selectProps={getSelectProps(fields.mixed_stack_report_id)}
              errors={fields.mixed_stack_report_id.errors}
            />
          ) : null}
          {reports?.length ? <ReportBulk reports={reports} /> : null}
        </div>
      ) : null}
    </Form>
  );
}

/** The bulk bar's "attach to a mixed stack report" as close up or far away (plain form buttons). */
function MixedStackBulk({
  reports,
  selectProps,
  errors,
}: {
  reports: Array<{ id: number; name: string }>;
  selectProps: ReturnType<typeof getSelectProps>;
  errors?: string[];
}) {
  const { t } = useTranslation("mixed-stack");
  return (
    <span className="bulk-mixed-stack" data-testid="bulk-mixed-stack">
      <SelectField
        label={t("bulk.report")}
        placeholder={t("bulk.report")}
        options={reports.map((r) => [r.id, r.name])}
        selectProps={{ ...selectProps, id: "bulk-mixed-stack-report" }}
        errors={errors?.map((e) => t(e))}
      />
      <button
        type="submit"
        name="intent"
        value="mixed-stack-close_up"
        className="btn btn-small"
        data-testid="bulk-mixed-stack-close_up"
      >
        {t("bulk.addCloseUp")}
      </button>
      <button
        type="submit"
        name="intent"
        value="mixed-stack-far_away"
        className="btn btn-small"
        data-testid="bulk-mixed-stack-far_away"
      >
        {t("bulk.addFarAway")}
      </button>
    </span>
  );
}

/**
 * The row menu's "Generate report" (a volume formula, then the storage's measurements in a new
 * report) and "Add to report" (the storage's measurements into a chosen report): plain forms.
 */
function ReportMenuItems({ storageId, reports }: { storageId: number; reports: Array<{ id: number; name: string }> }) {
  const { t } = useTranslation(["reports", "lookups"]);
  return (
    <>
      <Form method="post" className="dropdown-form report-menu-form" data-testid={`generate-report-form-${storageId}`}>
        <input type="hidden" name="storage_id" value={storageId} />
        <label className="sr-only" htmlFor={`report-formula-${storageId}`}>
          {t("menu.formula")}
        </label>
        <select id={`report-formula-${storageId}`} name="volume_formula" defaultValue="cylinder">
          {REPORT_FORMULA_KEYS.map((k) => (
            <option key={k} value={k}>
              {t(`lookups:formulas.${k}.name`)}
            </option>
          ))}
        </select>
        <button
          type="submit"
          name="intent"
          value="report-generate"
          className="dropdown-item"
          data-testid={`generate-report-${storageId}`}
        >
          {t("menu.generate")}
        </button>
      </Form>
      {reports.length ? (
        <Form
          method="post"
          className="dropdown-form report-menu-form"
          data-testid={`add-storage-report-form-${storageId}`}
        >
          <input type="hidden" name="storage_id" value={storageId} />
          <label className="sr-only" htmlFor={`report-target-${storageId}`}>
            {t("menu.report")}
          </label>
          <select id={`report-target-${storageId}`} name="report_id" defaultValue="">
            <option value="">{t("menu.report")}</option>
            {reports.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
          <button
            type="submit"
            name="intent"
            value="report-add-storage"
            className="dropdown-item"
            data-testid={`add-storage-to-report-${storageId}`}
          >
            {t("menu.addToReport")}
          </button>
        </Form>
      ) : null}
    </>
  );
}

/** The bulk bar's "Add to report" (the selected measurements into a chosen report). */
function ReportBulk({ reports }: { reports: Array<{ id: number; name: string }> }) {
  const { t } = useTranslation("reports");
  return (
    <span className="bulk-report" data-testid="bulk-report">
      <label className="sr-only" htmlFor="bulk-report-id">
        {t("bulk.report")}
      </label>
      <select id="bulk-report-id" name="report_id" defaultValue="">
        <option value="">{t("bulk.report")}</option>
        {reports.map((r) => (
          <option key={r.id} value={r.id}>
            {r.name}
          </option>
        ))}
      </select>
      <button
        type="submit"
        name="intent"
        value="report-add-measurements"
        className="btn btn-small"
        data-testid="bulk-add-to-report"
      >
        {t("bulk.add")}
      </button>
    </span>
  );
}
