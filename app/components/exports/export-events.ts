// The browser side of exports: an ExportButton announces a request it made, the notices pick
// it up and show its progress until the worker's realtime event (or a poll) says it is ready.
export type ExportSummary = {
  id: number;
  name: string;
  kind: "excel" | "pdf";
  status: number;
  progress: number;
  url: string | null;
  status_detail: string | null;
};

export const EXPORT_REQUESTED = "export-requested";

export function announceExportRequested(summary: ExportSummary) {
  window.dispatchEvent(new CustomEvent<ExportSummary>(EXPORT_REQUESTED, { detail: summary }));
}
