// /measurements/timber/{id}: the same detail screen as /measurement/{id} (the dashboard's link).
export { action, ErrorBoundary, handle, loader } from "./_app.measurement.$id";
export { default } from "./_app.measurement.$id";
