// What the web server (server/remix-handler.ts) hands every loader and action besides the request.
declare module "@remix-run/server-runtime" {
  interface AppLoadContext {
    /** The nonce of this answer's Content-Security-Policy, for Remix's inline scripts. */
    cspNonce?: string;
    /** The client's address as Express's `trust proxy` setting sees it; null when not a valid IP. */
    clientIp?: string | null;
  }
}

export function clientIp(context: { clientIp?: string | null } | undefined): string | null {
  return context?.clientIp ?? null;
}
