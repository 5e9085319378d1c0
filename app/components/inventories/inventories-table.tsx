import { Link } from "@remix-run/react";
import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { ExportButton } from "~/components/exports/export-button";
import { Icon } from "~/components/ui/icon";
import { InventoryActionForm } from "./confirm-form";

export interface InventoryListRow {
  id: number;
  storage_name: string;
  creator_name: string | null;
  created_at: string;
  confirmed_at: string | null;
  canConfirm: boolean;
  summary: {
    inventoried_volume: number;
    real_total: number;
    incoming_volume: number;
    outgoing_volume: number;
    calculated_volume: number;
    diff_volume: number;
  };
  list_items: Array<{ key: string | null; name: string | null; inventory: number; calculated: number; diff: number }>;
}

/** The inventories list: a row expands (a link, so without JavaScript too) to its per-item table. */
export function InventoriesTable({
  inventories,
  openId,
  hrefWith,
  volume,
  month,
  dateTime,
}: {
  inventories: InventoryListRow[];
  openId: number | null;
  hrefWith: (changes: Record<string, string | null>) => string;
  volume: (m3: number) => string;
  month: (iso: string) => string;
  dateTime: (iso: string) => string;
}) {
  const { t } = useTranslation(["inventories", "exports"]);
  return (
    <div className="table-wrap">
      <table className="table inventories-table" data-testid="inventories-table">
        <thead>
          <tr>
            <th aria-label={t("table.expand")} />
            <th>{t("table.storage")}</th>
            <th>{t("table.creator")}</th>
            <th>{t("table.month")}</th>
            <th className="num">{t("table.inventoried")}</th>
            <th className="num">{t("table.real")}</th>
            <th className="num">{t("table.incoming")}</th>
            <th className="num">{t("table.outgoing")}</th>
            <th>{t("table.status")}</th>
            <th aria-label={t("table.actions")} />
          </tr>
        </thead>
        <tbody>
          {inventories.map((i) => {
            const open = openId === i.id;
            return (
              <Fragment key={i.id}>
                <tr data-testid={`inventory-${i.id}`} className={open ? "row-open" : undefined}>
                  <td>
                    <Link
                      to={hrefWith({ open: open ? null : String(i.id) })}
                      preventScrollReset
                      className={`expand-toggle${open ? " open" : ""}`}
                      aria-expanded={open}
                      aria-label={t(open ? "table.collapse" : "table.expand")}
                      data-testid={`expand-${i.id}`}
                    >
                      <Icon name="chevron" />
                    </Link>
                  </td>
                  <td>{i.storage_name}</td>
                  <td>{i.creator_name ?? "—"}</td>
                  <td title={dateTime(i.created_at)}>{month(i.created_at)}</td>
                  <td className="num" data-testid={`inventory-${i.id}-inventoried`}>
                    {volume(i.summary.inventoried_volume)}
                  </td>
                  <td className="num" data-testid={`inventory-${i.id}-real`}>
                    {volume(i.summary.real_total)}
                  </td>
                  <td className="num" data-testid={`inventory-${i.id}-incoming`}>
                    {volume(i.summary.incoming_volume)}
                  </td>
                  <td className="num" data-testid={`inventory-${i.id}-outgoing`}>
                    {volume(i.summary.outgoing_volume)}
                  </td>
                  <td>
                    {i.confirmed_at ? (
                      <span className="badge badge-state-success" title={dateTime(i.confirmed_at)}>
                        {t("status.confirmed")}
                      </span>
                    ) : (
                      <span className="badge badge-state-warning">{t("status.open")}</span>
                    )}
                  </td>
                  <td className="row-actions">
                    {i.confirmed_at ? (
                      <button type="button" className="btn btn-small" disabled data-testid={`confirm-${i.id}`}>
                        {t("actions.confirmed")}
                      </button>
                    ) : i.canConfirm ? (
                      <InventoryActionForm
                        intent="confirm"
                        fields={{ inventory_id: i.id }}
                        question={t("actions.confirmQuestion", { storage: i.storage_name })}
                        className="inline-form"
                      >
                        <button type="submit" className="btn btn-small btn-primary" data-testid={`confirm-${i.id}`}>
                          {t("actions.confirm")}
                        </button>
                      </InventoryActionForm>
                    ) : null}
                    <ExportButton
                      kind="excel"
                      reportType="inventories_excel"
                      fields={{ inventory_id: i.id }}
                      label={t("actions.excel")}
                    />
                  </td>
                </tr>
                {open ? (
                  <tr className="row-detail">
                    <td colSpan={10}>
                      <ItemsTable items={i.list_items} volume={volume} calculated={i.summary} />
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

function ItemsTable({
  items,
  volume,
  calculated,
}: {
  items: InventoryListRow["list_items"];
  volume: (m3: number) => string;
  calculated: InventoryListRow["summary"];
}) {
  const { t } = useTranslation("inventories");
  if (items.length === 0) return <p className="muted">{t("items.empty")}</p>;
  return (
    <table className="table items-table" data-testid="inventory-items">
      <thead>
        <tr>
          <th>{t("items.name")}</th>
          <th className="num">{t("items.inventory")}</th>
          <th className="num">{t("items.calculated")}</th>
          <th className="num">{t("items.diff")}</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.key ?? "unsorted"} data-testid={`item-${item.key ?? "unsorted"}`}>
            <td>{item.name ?? t("items.unsorted")}</td>
            <td className="num">{volume(item.inventory)}</td>
            <td className="num">{volume(item.calculated)}</td>
            <td className={`num${item.diff < 0 ? " loss" : ""}`}>{volume(item.diff)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr data-testid="items-total">
          <th>{t("items.total")}</th>
          <th className="num">{volume(calculated.inventoried_volume)}</th>
          <th className="num">{volume(calculated.calculated_volume)}</th>
          <th className={`num${calculated.diff_volume < 0 ? " loss" : ""}`}>{volume(calculated.diff_volume)}</th>
        </tr>
      </tfoot>
    </table>
  );
}
