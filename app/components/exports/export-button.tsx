import { useLocation } from "@remix-run/react";
import { useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { showToast } from "~/components/ui/toaster";
import { announceExportRequested, type ExportSummary } from "./export-events";

type Props = {
  kind: "excel" | "pdf";
  reportType: string;
  /** The selection: explicit ids (an empty list is refused with the spec's error toast)... */
  measurementIds?: number[];
  /** ...or, for the PDF of one measurement, its id (POST /pdf_exports/{id}). */
  measurementId?: number;
  storageId?: number;
  /** Further fields sent as they are, e.g. the dashboard's filters (storage_ids, taken_at_start...). */
  fields?: Record<string, string | number | undefined>;
  label: string;
  className?: string;
  /** The submit button's class (default "btn"; "dropdown-item" inside a menu). */
  buttonClassName?: string;
  /** Visible inputs the user fills in (sent with the hidden fields). */
  children?: ReactNode;
};

/**
 * A button that asks for an export. With JavaScript it posts JSON and shows the spec's info toast
 * ("being prepared") or an error toast, and hands the new export to the live notices; without
 * JavaScript it is a plain form post answered by a redirect with the same toasts.
 */
export function ExportButton({
  kind,
  reportType,
  measurementIds,
  measurementId,
  storageId,
  fields,
  label,
  className,
  buttonClassName = "btn",
  children,
}: Props) {
  const { t } = useTranslation("exports");
  const location = useLocation();
  const [busy, setBusy] = useState(false);
  const action =
    kind === "pdf" && measurementId !== undefined
      ? `/api/web_app/pdf_exports/${measurementId}`
      : `/api/web_app/${kind}_exports`;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (measurementIds && measurementIds.length === 0) {
      showToast({ type: "error", key: "exports:errors.emptySelection" });
      return;
    }
    const body: Record<string, unknown> = {};
    for (const [key, value] of new FormData(event.currentTarget)) {
      if (key === "redirectTo" || value === "") continue;
      body[key] = key === "measurement_ids" ? String(value).split(",").map(Number) : value;
    }
    setBusy(true);
    try {
      const response = await fetch(action, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body),
      });
      const data = (await response.json().catch(() => null)) as
        (ExportSummary & { errors?: Record<string, string[]> }) | null;
      if (response.ok && data) {
        showToast({ type: "info", key: "exports:toast.preparing" });
        announceExportRequested(data);
      } else if (
        Object.values(data?.errors ?? {})
          .flat()
          .some((m) => m.startsWith("exports:errors."))
      ) {
        // The schema's own reason (empty selection, too many for one PDF...), in the reader's language.
        const key = Object.values(data!.errors!)
          .flat()
          .find((m) => m.startsWith("exports:errors."))!;
        showToast({ type: "error", key, values: { max: 200 } });
      } else {
        showToast({ type: "error", key: kind === "excel" ? "exports:toast.excelFailed" : "exports:toast.pdfFailed" });
      }
    } catch {
      showToast({ type: "error", key: kind === "excel" ? "exports:toast.excelFailed" : "exports:toast.pdfFailed" });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      method="post"
      action={action}
      onSubmit={onSubmit}
      className={className ?? "export-button"}
      data-testid={`export-button-${reportType}`}
    >
      <input type="hidden" name="report_type" value={reportType} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      {measurementIds ? <input type="hidden" name="measurement_ids" value={measurementIds.join(",")} /> : null}
      {storageId !== undefined ? <input type="hidden" name="storage_id" value={storageId} /> : null}
      {Object.entries(fields ?? {}).map(([name, value]) =>
        value === undefined ? null : <input key={name} type="hidden" name={name} value={value} />,
      )}
      {children}
      <button type="submit" className={buttonClassName} disabled={busy} aria-busy={busy}>
        {busy ? t("button.requesting") : label}
      </button>
    </form>
  );
}
