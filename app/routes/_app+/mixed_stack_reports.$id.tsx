// The product's old link /mixed_stack_reports/{id}: the same screen as /reports/mixed-stack/{id}.
export { action, default, ErrorBoundary, handle, loader } from "./reports+/mixed-stack+/$id";
