// /lumber_measurements/{id} (the product's old link to a lumber measurement): the detail screen
// of /measurements/lumber/{id}.
export { ErrorBoundary, handle, loader } from "./measurements+/lumber+/$id";
export { default } from "./measurements+/lumber+/$id";
