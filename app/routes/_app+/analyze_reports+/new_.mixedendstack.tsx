// /analyze_reports/new/mixedendstack: the spec's way to start a mixed stack report from the
// analysis area; the same screen as /reports/mixed-stack/new (its feature and role checks too).
export { action, default, ErrorBoundary, handle, loader } from "../reports+/mixed-stack+/new";
