import { AsyncLocalStorage } from "node:async_hooks";

// What the request log line needs to know from inside the app (the organisation of the signed-in
// caller, the route that answered). One AsyncLocalStorage per process, kept on globalThis so the
// web server's pipeline (build/web-server.js) and the Remix build share it.

export type RequestContext = { requestId: string; routeId?: string; organizationId?: number };

const KEY = Symbol.for("timber.request-context");
type WithStorage = typeof globalThis & { [KEY]?: AsyncLocalStorage<RequestContext> };

export function requestStorage(): AsyncLocalStorage<RequestContext> {
  const g = globalThis as WithStorage;
  g[KEY] ??= new AsyncLocalStorage<RequestContext>();
  return g[KEY];
}

/** Called where the caller's organisation becomes known (the auth guards). */
export function noteOrganization(organizationId: number) {
  const store = requestStorage().getStore();
  if (store) store.organizationId = organizationId;
}
