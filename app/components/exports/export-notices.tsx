import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { detailText } from "~/utils/export-detail";
import { useRealtime } from "~/utils/use-realtime";
import { EXPORT_REQUESTED, type ExportSummary } from "./export-events";

// Spec: a live notice tells the owner when an export is ready and closes itself after 15 s.
// While an export this tab asked for is still in progress (status 0) the notice shows its progress.
export const NOTICE_MS = 15_000;
const POLL_MS = 2_000;

type Notice = ExportSummary & { key: number };

export function ExportNotices({ userId }: { userId: number }) {
  const { t } = useTranslation("exports");
  const [notices, setNotices] = useState<Notice[]>([]);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  function upsert(summary: ExportSummary) {
    setNotices((list) => {
      const rest = list.filter((n) => !(n.id === summary.id && n.kind === summary.kind));
      return [...rest, { ...summary, key: Date.now() + Math.random() }];
    });
    const key = `${summary.kind}:${summary.id}`;
    if (summary.status !== 0) {
      // Finished: close after 15 s.
      clearTimeout(timers.current.get(key));
      timers.current.set(
        key,
        setTimeout(() => dismiss(summary), NOTICE_MS),
      );
    }
  }
  function dismiss(summary: Pick<ExportSummary, "id" | "kind">) {
    setNotices((list) => list.filter((n) => !(n.id === summary.id && n.kind === summary.kind)));
  }

  const onCreated = (data: unknown) => {
    const e = (data as { export?: ExportSummary })?.export;
    if (e) upsert(e);
  };
  useRealtime(`user:${userId}`, "excel-export-created", onCreated);
  useRealtime(`user:${userId}`, "pdf-export-created", onCreated);

  useEffect(() => {
    const onRequested = (event: Event) => upsert((event as CustomEvent<ExportSummary>).detail);
    window.addEventListener(EXPORT_REQUESTED, onRequested);
    const all = timers.current;
    return () => {
      window.removeEventListener(EXPORT_REQUESTED, onRequested);
      for (const timer of all.values()) clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- subscribe once per mount; upsert only sets state
  }, []);

  // Progress of the exports still running: a light poll, stopped once each is finished.
  const pending = notices
    .filter((n) => n.status === 0)
    .map((n) => `${n.kind}:${n.id}`)
    .join(",");
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(async () => {
      for (const ref of pending.split(",")) {
        const [kind, id] = ref.split(":");
        const r = await fetch(`/api/web_app/${kind}_exports/${id}`, { headers: { Accept: "application/json" } }).catch(
          () => null,
        );
        if (r?.ok) {
          const fresh = (await r.json()) as ExportSummary;
          setNotices((list) =>
            list.map((n) => (n.id === fresh.id && n.kind === fresh.kind && n.status === 0 ? { ...n, ...fresh } : n)),
          );
          if (fresh.status !== 0) upsert(fresh);
        }
      }
    }, POLL_MS);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- restart the poll only when the set of running exports changes
  }, [pending]);

  if (!notices.length) return null;
  return (
    <div className="export-notices" aria-live="polite">
      {notices.map((n) => (
        <div
          key={n.key}
          className={`export-notice export-notice-${statusName(n.status)}`}
          role="status"
          data-testid="export-notice"
          data-status={n.status}
        >
          <div className="export-notice-body">
            <strong>{n.name}</strong>
            <span>{t(`notice.${statusName(n.status)}`)}</span>
            {n.status === 0 ? (
              <progress max={100} value={n.progress} aria-label={t("list.progress", { progress: n.progress })} />
            ) : null}
            {n.status === 2 && n.status_detail ? <span className="muted">{detailText(t, n.status_detail)}</span> : null}
            {n.url ? (
              <a className="btn btn-small btn-primary" href={n.url} download data-testid="export-notice-download">
                {t("list.download")}
              </a>
            ) : null}
          </div>
          <button
            type="button"
            className="btn btn-ghost btn-small"
            onClick={() => dismiss(n)}
            aria-label={t("notice.close")}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

export function statusName(status: number) {
  return (["inProgress", "done", "partial", "failed"] as const)[status] ?? "failed";
}
