// /measurements/timber/{id}: the same detail screen as /measurement/{id} (the dashboard's link).
export { action, ErrorBoundary, handle, loader } from "./measurements+/timber+/$id";
export { default } from "./measurements+/timber+/$id";
