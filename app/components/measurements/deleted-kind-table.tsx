import { Form } from "@remix-run/react";
import { Fragment, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatDateTime, formatNumber } from "~/domain";

// The deleted page's frame, shared by every measurement kind: rows grouped by storage with the
// storage's sums, a total row, and a no-JavaScript restore form per row. A kind only says what
// differs: its label, an optional plate column, which count it sums (logs, planks, loads) and the
// test ids the screen tests know it by.

export type RestoreKind = "timber" | "lumber" | "truck" | "truck_diameter";

type DateValue = string | Date;
export type DeletedRow = { id: number; taken_at: DateValue; deleted_at: DateValue | null; volume: number };
export type DeletedStorage<M extends DeletedRow> = { id: number; name: string; volume: number; measurements: M[] };
type RowOf<S extends DeletedStorage<DeletedRow>> = S["measurements"][number];

/** One row's restore: a plain POST form, so it works without JavaScript (the route's action). */
function RestoreButton({ kind, id }: { kind: RestoreKind; id: number }) {
  const { t } = useTranslation("trust");
  return (
    <Form method="post" className="inline-form">
      <input type="hidden" name="intent" value="restore" />
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="id" value={id} />
      <button type="submit" className="btn btn-sm" data-testid={`restore-${kind}-${id}`}>
        {t("restore.button")}
      </button>
    </Form>
  );
}

/**
 * Test ids: `${testId}-table`, `-storage-${id}`, `-total`, `-empty`, and `${rowTestId}-${id}` per
 * row (rowTestId defaults to testId). `empty` shows when nothing is deleted: a string becomes the
 * muted line, any other node is shown as it is.
 */
export function DeletedKindTable<S extends DeletedStorage<DeletedRow>>({
  kind,
  testId,
  rowTestId = testId,
  storages,
  totalVolume,
  truncated,
  empty,
  label,
  plate,
  count,
  timeZone,
  locale,
}: {
  kind: RestoreKind;
  testId: string;
  rowTestId?: string;
  storages: S[];
  totalVolume: number;
  truncated: boolean;
  empty: ReactNode;
  label: (m: RowOf<S>) => string;
  plate?: { header: string; of: (m: RowOf<S>) => string | null };
  count: { header: string; ofStorage: (s: S) => number; of: (m: RowOf<S>) => number; total: number };
  timeZone: string;
  locale: string;
}) {
  const { t } = useTranslation(["timber", "trust"]);
  const vol = (v: number) => formatNumber(v, 3, locale);
  const leading = plate ? 4 : 3;
  return (
    <>
      {truncated ? (
        <div className="alert alert-warning" role="note">
          {t("deleted.truncated")}
        </div>
      ) : null}
      {storages.length === 0 ? (
        typeof empty === "string" ? (
          <p className="muted" data-testid={`${testId}-empty`}>
            {empty}
          </p>
        ) : (
          empty
        )
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid={`${testId}-table`}>
            <thead>
              <tr>
                <th>{t("table.measurement")}</th>
                {plate ? <th>{plate.header}</th> : null}
                <th>{t("fields.takenAt")}</th>
                <th>{t("deleted.deletedAt")}</th>
                <th className="num">{count.header}</th>
                <th className="num">{t("deleted.volume")}</th>
                <th>
                  <span className="sr-only">{t("trust:restore.button")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {storages.map((s) => (
                <Fragment key={s.id}>
                  <tr className="group-row" data-testid={`${testId}-storage-${s.id}`}>
                    <th colSpan={leading}>{s.name}</th>
                    <th className="num">{count.ofStorage(s)}</th>
                    <th className="num">{vol(s.volume)}</th>
                    <th />
                  </tr>
                  {s.measurements.map((m) => (
                    <tr key={m.id} data-testid={`${rowTestId}-${m.id}`}>
                      <td>{label(m)}</td>
                      {plate ? <td>{plate.of(m) ?? "–"}</td> : null}
                      <td>{formatDateTime(m.taken_at, timeZone)}</td>
                      <td>{formatDateTime(m.deleted_at, timeZone)}</td>
                      <td className="num">{count.of(m)}</td>
                      <td className="num">{vol(m.volume)}</td>
                      <td>
                        <RestoreButton kind={kind} id={m.id} />
                      </td>
                    </tr>
                  ))}
                </Fragment>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th colSpan={leading}>{t("deleted.total")}</th>
                <th className="num">{count.total}</th>
                <th className="num" data-testid={`${testId}-total`}>
                  {vol(totalVolume)}
                </th>
                <th />
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </>
  );
}

/** A kind's part of the page after the timber table, reachable by its anchor (#lumber, #trucks, ...). */
export function DeletedKindSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} className="deleted-lumber" aria-labelledby={`deleted-${id}-title`}>
      <h2 className="section-title" id={`deleted-${id}-title`}>
        {title}
      </h2>
      {children}
    </section>
  );
}
