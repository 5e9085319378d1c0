import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Icon } from "~/components/ui/icon";
import { MIXED_STACK_CATEGORIES } from "~/domain/mixed-stack";
import type { formatsFor } from "~/utils/use-format";

// The figures and the two groups of a mixed stack report: its page (with remove buttons for
// those who may edit) and its public page (read-only, no controls).

type Formats = ReturnType<typeof formatsFor>;

export interface FiguresData {
  total_delivery_tons: number | null;
  log_count: number;
  min_diameter: number | null;
  max_diameter: number | null;
  average_diameter: number | null;
  average_jas: number | null;
  far_away_volume: number;
  tons_per_m3: number | null;
  m3_per_ton: number | null;
}

export function MixedStackFigures({ report, f }: { report: FiguresData; f: Formats }) {
  const { t } = useTranslation("mixed-stack");
  const item = (key: string, value: string, testId: string, hint?: string) => (
    <div>
      <dt>{t(`figures.${key}`)}</dt>
      <dd data-testid={testId}>{value}</dd>
      {hint ? <dd className="muted small">{hint}</dd> : null}
    </div>
  );
  return (
    <dl className="detail-totals mixed-stack-figures" data-testid="mixed-stack-figures">
      {item("totalDelivery", f.quantity(report.total_delivery_tons, 2, "t"), "figure-tons")}
      {item("logCount", f.count(report.log_count), "figure-log-count", t("figures.fromCloseUp"))}
      {item("minDiameter", f.diameter(report.min_diameter), "figure-min")}
      {item("maxDiameter", f.diameter(report.max_diameter), "figure-max")}
      {item("averageDiameter", f.diameter(report.average_diameter), "figure-average")}
      {item("averageJas", f.diameter(report.average_jas), "figure-average-jas", t("figures.averageJasHint"))}
      {item(
        "farAwayVolume",
        f.quantity(report.far_away_volume, 3, "m³"),
        "figure-far-away-volume",
        t("figures.fromFarAway"),
      )}
      {item("tonsPerM3", f.quantity(report.tons_per_m3, 3, "t/m³"), "figure-tons-per-m3", t("figures.densityHint"))}
      {item("m3PerTon", f.quantity(report.m3_per_ton, 3, "m³/t"), "figure-m3-per-ton")}
    </dl>
  );
}

export interface GroupItem {
  id: number;
  log_count: number;
  taken_at: string;
  photo_thumbnail?: string | null;
}

export function MixedStackGroups({
  groups,
  f,
  removable,
  linkTo,
}: {
  groups: { close_up: GroupItem[]; far_away: GroupItem[] };
  f: Formats;
  removable: boolean;
  linkTo?: (id: number) => string;
}) {
  const { t } = useTranslation(["mixed-stack", "timber"]);
  return (
    <>
      {MIXED_STACK_CATEGORIES.map((category) => (
        <section key={category} className="card" data-testid={`group-${category}`}>
          <h2 className="card-title">
            {t(`groups.${category}`)} <span className="muted">({f.count(groups[category].length)})</span>
          </h2>
          {groups[category].length === 0 ? (
            <p className="muted" data-testid={`group-${category}-empty`}>
              {t(`groups.empty_${category}`)}
            </p>
          ) : (
            <ul className="measurement-cards">
              {groups[category].map((m) => {
                const body = (
                  <>
                    {m.photo_thumbnail ? (
                      <img
                        className="thumb"
                        src={m.photo_thumbnail}
                        alt={t("timber:photoAlt", { id: m.id })}
                        width={80}
                        height={80}
                        loading="lazy"
                      />
                    ) : (
                      <span className="thumb thumb-pending" title={t("timber:noPhoto")}>
                        <Icon name="photo" />
                      </span>
                    )}
                    <span className="measurement-meta">
                      <strong>{t("timber:measurement", { id: m.id })}</strong>
                      <span>{f.dateTime(m.taken_at)}</span>
                      <span data-testid={`item-${m.id}-logs`}>{t("timber:logsCount", { count: m.log_count })}</span>
                    </span>
                  </>
                );
                return (
                  <li key={m.id} className="measurement-card" data-testid={`item-${m.id}`}>
                    {linkTo ? (
                      <a href={linkTo(m.id)} className="measurement-link">
                        {body}
                      </a>
                    ) : (
                      <div className="measurement-link">{body}</div>
                    )}
                    {removable ? (
                      <Form method="post">
                        <input type="hidden" name="intent" value="remove" />
                        <input type="hidden" name="measurement_ids" value={m.id} />
                        <button type="submit" className="btn btn-small danger" data-testid={`remove-${m.id}`}>
                          {t("groups.remove")}
                        </button>
                      </Form>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          )}
        </section>
      ))}
    </>
  );
}
