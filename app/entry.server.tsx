import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable, type AppLoadContext, type EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { createInstance } from "i18next";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import i18nConfig from "./i18n";
import { closeJobs } from "./services/jobs.server";
import { closeMetrics } from "./services/metrics.server";
import { closeRealtime } from "./services/realtime.server";
import { db } from "./utils/db.server";
import { getLanguage, translations } from "./utils/i18n.server";
import { logError } from "./utils/log.server";
import { NonceProvider } from "./utils/nonce";

const ABORT_DELAY = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
): Promise<Response> {
  const nonce = loadContext.cspNonce ?? "";
  const instance = createInstance();
  const lng = await getLanguage(request);
  await instance.use(initReactI18next).init({ ...i18nConfig, lng, resources: translations() });

  const callbackName = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  responseHeaders.set("X-Content-Type-Options", "nosniff");
  // A route may ask for a stricter one (the public token pages: no-referrer).
  if (!responseHeaders.has("Referrer-Policy")) responseHeaders.set("Referrer-Policy", "same-origin");

  return new Promise((resolve, reject) => {
    let didError = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <I18nextProvider i18n={instance}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </I18nextProvider>
      </NonceProvider>,
      {
        nonce,
        [callbackName]: () => {
          const body = new PassThrough();
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: didError ? 500 : responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError: reject,
        onError(error: unknown) {
          didError = true;
          logError(error, request);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  logError(error, request);
}

/** Closes this process's pools and connections (the web process's graceful shutdown, server.js). */
export async function closeResources() {
  await Promise.allSettled([closeJobs(), closeRealtime(), closeMetrics(), db().destroy()]);
}
