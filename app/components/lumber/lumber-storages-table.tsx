import { Form, Link } from "@remix-run/react";
import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { ExpandToggle, Pager } from "~/components/measurements/pager";
import { StorageStateBadge } from "~/components/timber/storages-table";
import { Icon } from "~/components/ui/icon";
import { measurementTypeName } from "~/utils/lookup-name";
import { useFormat } from "~/utils/use-format";

export interface LumberStorageRow {
  id: number;
  name: string;
  storage_state_id: number;
  planks_count: number;
  volume: number;
  measurements_count: number;
  is_default: boolean;
  canEdit: boolean;
}
export interface LumberListItem {
  id: number;
  taken_at: string;
  plank_count: number;
  plank_length: number | null;
  volume: number;
  lumber_product_name: string | null;
  measurement_type_id: number;
  inventory_id: number | null;
  photo_status: number;
  photo_thumbnail: string | null;
  has_photo: boolean;
}
export interface LumberExpanded {
  storageId: number;
  page: number;
  totalPages: number;
  totalCount: number;
  measurements: LumberListItem[];
}

/**
 * The lumber dashboard's storages with their plank counts and volume. A row expands (a link,
 * so it works without JavaScript) to its lumber measurements, 5 per page, each linking to its
 * detail page; those the user may edit have a delete button behind a browser confirmation.
 */
export function LumberStoragesTable({
  storages,
  expanded,
  hrefWith,
  formatVolume,
  formatPlank,
  isAdmin,
}: {
  storages: LumberStorageRow[];
  expanded: LumberExpanded | null;
  hrefWith: (changes: Record<string, string | null>) => string;
  formatVolume: (v: number) => string;
  formatPlank: (mm: number) => string;
  isAdmin: boolean;
}) {
  const { t } = useTranslation(["lumber", "timber"]);
  const format = useFormat();
  return (
    <div className="table-wrap">
      <table className="table storages-table" data-testid="storages-table">
        <thead>
          <tr>
            <th aria-label={t("timber:table.expand")} />
            <th>{t("timber:table.storage")}</th>
            <th>{t("timber:table.state")}</th>
            <th className="num">{t("timber:table.measurements")}</th>
            <th className="num">{t("table.planks")}</th>
            <th className="num">{t("timber:table.volume")}</th>
            <th aria-label={t("timber:table.actions")} />
          </tr>
        </thead>
        <tbody>
          {storages.map((s) => {
            const open = expanded?.storageId === s.id;
            return (
              <Fragment key={s.id}>
                <tr data-testid={`storage-${s.id}`} className={open ? "row-open" : undefined}>
                  <td>
                    <ExpandToggle storageId={s.id} open={open} empty={s.measurements_count === 0} hrefWith={hrefWith} />
                  </td>
                  <td>
                    {s.name}
                    {s.is_default ? <span className="muted"> · {t("timber:table.default")}</span> : null}
                  </td>
                  <td>
                    <StorageStateBadge state={s.storage_state_id} />
                  </td>
                  <td className="num" data-testid={`storage-${s.id}-measurements`}>
                    {format.count(s.measurements_count)}
                  </td>
                  <td className="num" data-testid={`storage-${s.id}-planks`}>
                    {format.count(s.planks_count)}
                  </td>
                  <td className="num" data-testid={`storage-${s.id}-volume`}>
                    {formatVolume(s.volume)}
                  </td>
                  <td>
                    {isAdmin ? (
                      <Link className="btn btn-ghost btn-small" to={`/storages/${s.id}`}>
                        {t("timber:menu.edit")}
                      </Link>
                    ) : null}
                  </td>
                </tr>
                {open && expanded ? (
                  <tr className="row-detail">
                    <td colSpan={7}>
                      <LumberMeasurementsList
                        expanded={expanded}
                        hrefWith={hrefWith}
                        formatVolume={formatVolume}
                        formatPlank={formatPlank}
                        formatDate={(iso) => format.dateTime(iso)}
                        canEdit={s.canEdit}
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

function LumberMeasurementsList({
  expanded,
  hrefWith,
  formatVolume,
  formatPlank,
  formatDate,
  canEdit,
}: {
  expanded: LumberExpanded;
  hrefWith: (changes: Record<string, string | null>) => string;
  formatVolume: (v: number) => string;
  formatPlank: (mm: number) => string;
  formatDate: (iso: string) => string;
  canEdit: boolean;
}) {
  const { t } = useTranslation(["lumber", "timber"]);
  return (
    <div className="measurements-list" data-testid="measurements-list">
      <ul className="measurement-cards">
        {expanded.measurements.map((m) => (
          <li key={m.id} className="measurement-card" data-testid={`measurement-${m.id}`}>
            <Link to={`/measurements/lumber/${m.id}`} className="measurement-link">
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
                  title={t(
                    m.has_photo
                      ? m.photo_status === 3
                        ? "timber:photoFailed"
                        : "timber:photoProcessing"
                      : "timber:noPhoto",
                  )}
                >
                  <Icon name="photo" />
                </span>
              )}
              <span className="measurement-meta">
                <strong>{t("measurement", { id: m.id })}</strong>
                <span>{formatDate(m.taken_at)}</span>
                <span data-testid={`measurement-${m.id}-product`}>
                  {m.lumber_product_name ?? t("noProduct")} · {measurementTypeName(t, m.measurement_type_id)}
                </span>
                <span data-testid={`measurement-${m.id}-planks`}>
                  {t("planksCount", { count: m.plank_count })}
                  {m.plank_length !== null ? ` · ${t("plankLength", { length: formatPlank(m.plank_length) })}` : ""}
                </span>
              </span>
              <span className="measurement-volume" data-testid={`measurement-${m.id}-volume`}>
                {formatVolume(m.volume)}
              </span>
            </Link>
            {m.inventory_id !== null ? (
              <span className="badge">{t("timber:locked")}</span>
            ) : canEdit ? (
              <Form
                method="post"
                preventScrollReset
                onSubmit={(e) => {
                  if (!window.confirm(t("confirmDelete", { id: m.id }))) e.preventDefault();
                }}
              >
                <input type="hidden" name="intent" value="delete" />
                <input type="hidden" name="measurement_ids" value={m.id} />
                <button
                  type="submit"
                  className="btn btn-small danger"
                  aria-label={t("deleteOne", { id: m.id })}
                  data-testid={`delete-${m.id}`}
                >
                  {t("delete")}
                </button>
              </Form>
            ) : null}
          </li>
        ))}
      </ul>
      <Pager page={expanded.page} totalPages={expanded.totalPages} hrefWith={hrefWith} />
    </div>
  );
}
