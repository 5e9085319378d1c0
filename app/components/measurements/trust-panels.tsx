import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { FormulaComparisonRow } from "~/domain/formula-comparison";
import { formulaName } from "~/utils/lookup-name";
import type { formatsFor } from "~/utils/use-format";

// The detail pages' proofs (docs/decisions/024-trust.md), for every measurement kind: the
// History panel, the original photo's fingerprint with its verify action, and every formula
// side by side. Numbers arrive computed (app/domain); these only lay them out.

type Formats = ReturnType<typeof formatsFor>;

export type HistoryEntryView = {
  id: number;
  action: string;
  at: string;
  user_name: string | null;
  user_id: number | null;
  device_name: string | null;
  device_id: number | null;
  volume_before: number | null;
  volume_after: number | null;
  volume_change: number | null;
  changes: { fields: Record<string, { before?: unknown; after?: unknown }> } & Record<string, unknown>;
  hash?: string | null;
};

export type ChainVerificationView = { ok: boolean; entries: number; broken_at: number | null } | null;

const ROWS_KEYS = ["logs", "planks", "loads"] as const;

function short(value: unknown): string {
  if (value === null || value === undefined) return "-";
  if (Array.isArray(value)) return `[${value.length}]`;
  if (typeof value === "object") return "{…}";
  const text = String(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** A volume change with its sign, in the user's unit. */
export function signedVolume(f: Formats, m3: number) {
  const text = f.volume(Math.abs(m3));
  return m3 > 0 ? `+${text}` : m3 < 0 ? `−${text}` : text;
}

export function HistoryPanel({
  entries,
  f,
  chain = null,
}: {
  entries: HistoryEntryView[];
  f: Formats;
  chain?: ChainVerificationView;
}) {
  const { t } = useTranslation("trust");
  return (
    <section className="card" aria-labelledby="history-title" data-testid="history-panel">
      <h2 className="card-title" id="history-title">
        {t("history.title")}
      </h2>
      {entries.length ? (
        <>
          <p className="muted">{t("history.chainNote")}</p>
          <Form method="get" className="inline-form" preventScrollReset>
            <input type="hidden" name="verify_history" value="1" />
            <button type="submit" className="btn btn-small" data-testid="verify-history">
              {t("history.verify")}
            </button>
          </Form>
        </>
      ) : null}
      {chain ? (
        <div
          className={chain.ok ? "alert alert-success" : "alert alert-error"}
          role="status"
          data-testid="history-verification"
          data-ok={chain.ok ? "true" : "false"}
        >
          {chain.ok
            ? t("history.chainOk", { count: chain.entries })
            : t("history.chainBroken", { id: chain.broken_at })}
        </div>
      ) : null}
      {entries.length === 0 ? (
        <p className="muted">{t("history.empty")}</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>{t("history.when")}</th>
                <th>{t("history.who")}</th>
                <th>{t("history.what")}</th>
                <th className="num">{t("history.volumeChange")}</th>
                <th>{t("history.hash")}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id} data-testid={`history-${e.id}`} data-action={e.action}>
                  <td>{f.dateTime(e.at)}</td>
                  <td>
                    {e.device_id !== null
                      ? t("history.device", { name: e.device_name ?? e.device_id })
                      : (e.user_name ?? t("history.unknownUser"))}
                  </td>
                  <td>
                    <strong>{t(`history.actions.${e.action}`)}</strong>
                    <ul className="history-changes">
                      {ROWS_KEYS.map((key) => {
                        const rows = e.changes[key] as { added: number; removed: number; changed: number } | undefined;
                        return rows ? (
                          <li key={key} data-testid={`history-${e.id}-${key}`}>
                            {t("history.rows", {
                              name: t(`history.children.${key}`),
                              added: rows.added,
                              removed: rows.removed,
                              changed: rows.changed,
                            })}
                          </li>
                        ) : null;
                      })}
                      {Object.entries(e.changes.fields)
                        .filter(([name]) => name !== "volume")
                        .slice(0, 8)
                        .map(([name, c]) => (
                          <li key={name}>
                            <code>{name}</code>: {short(c.before)} → {short(c.after)}
                          </li>
                        ))}
                    </ul>
                  </td>
                  <td className="num" data-testid={`history-${e.id}-volume`}>
                    {e.volume_change === null
                      ? e.volume_after === null
                        ? "-"
                        : f.volume(e.volume_after)
                      : signedVolume(f, e.volume_change)}
                  </td>
                  <td>
                    {e.hash ? (
                      <code className="hash" title={e.hash} data-testid={`history-${e.id}-hash`}>
                        {e.hash.slice(0, 12)}
                      </code>
                    ) : (
                      "-"
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export type PhotoVerification = { ok: boolean; expected: string | null; actual: string | null } | null;

/** The original photo's SHA-256, the verify action (a GET with ?verify=1) and its result. */
export function PhotoFingerprint({
  sha256,
  verification,
  canVerify = true,
}: {
  sha256: string | null;
  verification: PhotoVerification;
  canVerify?: boolean;
}) {
  const { t } = useTranslation("trust");
  return (
    <section className="card" aria-labelledby="photo-fingerprint-title" data-testid="photo-fingerprint">
      <h2 className="card-title" id="photo-fingerprint-title">
        {t("photo.title")}
      </h2>
      <dl className="info-list">
        <dt>{t("photo.sha256")}</dt>
        <dd>
          {sha256 ? (
            <code className="hash" data-testid="photo-sha256">
              {sha256}
            </code>
          ) : (
            t("photo.none")
          )}
        </dd>
      </dl>
      <p className="muted">{t("photo.derived")}</p>
      {canVerify && sha256 ? (
        <Form method="get" className="inline-form" preventScrollReset>
          <input type="hidden" name="verify" value="1" />
          <button type="submit" className="btn btn-small" data-testid="verify-photo">
            {t("photo.verify")}
          </button>
        </Form>
      ) : null}
      {verification ? (
        <div
          className={verification.ok ? "alert alert-success" : "alert alert-error"}
          role="status"
          data-testid="photo-verification"
          data-ok={verification.ok ? "true" : "false"}
        >
          {t(verification.ok ? "photo.verified" : verification.actual ? "photo.tampered" : "photo.missing")}
          {!verification.ok && verification.actual ? (
            <div>
              <code className="hash">{verification.actual}</code>
            </div>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

/**
 * A photo's SHA-256 in a list of measurements (the public pages' cards): shown cut to its first
 * digits by CSS, the whole value in the page (selected or copied whole) and on hover.
 */
export function ShortSha256({ sha256, testId }: { sha256: string; testId?: string }) {
  const { t } = useTranslation("trust");
  return (
    <span className="photo-sha256">
      {t("photo.sha256")}:{" "}
      <code className="hash hash-short" title={sha256} data-testid={testId}>
        {sha256}
      </code>
    </span>
  );
}

/** Every formula a photo gives, side by side, in the user's unit, with the difference to the own formula. */
export function FormulaTable({ rows, f }: { rows: FormulaComparisonRow[]; f: Formats }) {
  const { t } = useTranslation(["trust", "lookups", "timber"]);
  return (
    <section className="card" aria-labelledby="formulas-title" data-testid="formula-table">
      <h2 className="card-title" id="formulas-title">
        {t("trust:formulas.title")}
      </h2>
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th>{t("trust:formulas.formula")}</th>
              <th className="num">{t("trust:formulas.total")}</th>
              <th className="num">{t("trust:formulas.difference")}</th>
              <th className="num">%</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.formula} data-testid={`formula-${r.formula}`} className={r.own ? "row-selected" : undefined}>
                <td>
                  {formulaName(t, r.formula)}
                  {r.boardFoot ? <span className="muted"> · {t("trust:formulas.boardFoot")}</span> : null}
                  {r.own ? <span className="badge"> {t("trust:formulas.own")}</span> : null}
                </td>
                <td className="num" data-testid={`formula-${r.formula}-total`}>
                  {r.totalM3 === null ? t("trust:formulas.unavailable") : f.volume(r.totalM3)}
                </td>
                <td className="num" data-testid={`formula-${r.formula}-difference`}>
                  {r.differenceM3 === null || r.own ? "-" : signedVolume(f, r.differenceM3)}
                </td>
                <td className="num">
                  {r.differencePercent === null || r.own
                    ? "-"
                    : `${r.differencePercent > 0 ? "+" : r.differencePercent < 0 ? "−" : ""}${f.number(Math.abs(r.differencePercent), 1)}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted">{t("trust:formulas.note")}</p>
    </section>
  );
}

export type MeasurementTrustView = {
  history: HistoryEntryView[];
  chain: ChainVerificationView;
  photo: { sha256: string | null; verification: PhotoVerification } | null;
  /** Every formula side by side; empty for a kind or measurement without photographed log ends. */
  formulas?: FormulaComparisonRow[];
};

/**
 * The proofs every kind's detail page shows, one component for all of them: every formula side by
 * side (when the measurement's logs are photographed top diameters), the original photo's
 * fingerprint (when the measurement has a photo) and the History panel with its chain. The data
 * comes from services/measurement-trust.server.ts (loadMeasurementTrust).
 */
export function MeasurementTrust({ trust, f }: { trust: MeasurementTrustView; f: Formats }) {
  return (
    <div className="page-section measurement-trust" data-testid="measurement-trust">
      {trust.formulas?.length ? <FormulaTable rows={trust.formulas} f={f} /> : null}
      {trust.photo ? <PhotoFingerprint sha256={trust.photo.sha256} verification={trust.photo.verification} /> : null}
      <HistoryPanel entries={trust.history} f={f} chain={trust.chain} />
    </div>
  );
}
