import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { GeneralErrorBoundary } from "./components/general-error-boundary";
import { Toaster } from "./components/ui/toaster";
import appStyles from "./styles/app.css";
import { publicEnv } from "./utils/env.server";
import { getLanguage, localesVersion } from "./utils/i18n.server";
import { useNonce } from "./utils/nonce";
import { popToast } from "./utils/toast.server";
import { useMarkHydrated } from "./utils/use-hydrated";
import { useLocale } from "./utils/use-locale";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: appStyles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "Timber" }];

export const handle = { i18n: ["common"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const [locale, { toast, headers }] = await Promise.all([getLanguage(request), popToast(request)]);
  const url = new URL(request.url);
  return json(
    {
      locale,
      toast,
      ENV: publicEnv(),
      localesVersion: localesVersion(),
      // Shown on an error screen of this page, so support can find the request's log line.
      request: { id: request.headers.get("x-request-id"), path: url.pathname },
    },
    { headers: headers ?? undefined },
  );
}

export type RootLoader = typeof loader;

function Document({
  children,
  lang = "en",
  localesVersion,
}: {
  children: React.ReactNode;
  lang?: string;
  localesVersion?: string;
}) {
  const data = useRouteLoaderData<typeof loader>("root");
  useMarkHydrated();
  const nonce = useNonce();
  return (
    <html lang={lang} data-locales-version={localesVersion}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <script
          nonce={nonce}
          // The whitelisted settings the browser may read (realtime adapter, map tiles).
          dangerouslySetInnerHTML={{ __html: `window.ENV = ${JSON.stringify(data?.ENV ?? {})}` }}
        />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { locale, toast, localesVersion } = useLoaderData<typeof loader>();
  useLocale(locale, localesVersion);
  return (
    <Document lang={locale} localesVersion={localesVersion}>
      <Outlet />
      <Toaster toast={toast} />
    </Document>
  );
}

export function ErrorBoundary() {
  const data = useRouteLoaderData<typeof loader>("root");
  return (
    <Document lang={data?.locale} localesVersion={data?.localesVersion}>
      <RootError />
    </Document>
  );
}

function RootError() {
  useTranslation();
  return (
    <main className="error-page">
      <GeneralErrorBoundary />
    </main>
  );
}
