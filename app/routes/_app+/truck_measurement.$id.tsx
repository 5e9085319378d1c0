// The product's old link /truck_measurement/{id}: the same screen as /measurements/truck/{id}.
export { action, default, ErrorBoundary, handle, links, loader } from "./measurements+/truck+/$id";
