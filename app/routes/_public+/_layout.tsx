import { Form, Outlet, useLocation, useNavigation, useRouteLoaderData, useSubmit } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PublicErrorBoundary } from "~/components/public/public-error-boundary";
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES } from "~/i18n";
import type { RootLoader } from "~/root";
import publicStyles from "~/styles/public.css";
import type { LinksFunction } from "@remix-run/node";

// The frame of the pages recipients open by token, outside the shell (no sign-in, no sidebar):
// the product's name, a language menu (the page's ?lng), the page, and a note that it is a
// read-only shared page. Each page's loader goes through app/utils/public-route.server.ts.

export const handle = { i18n: ["public"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: publicStyles }];

export default function PublicLayout() {
  const navigation = useNavigation();
  return (
    <PublicFrame busy={navigation.state === "loading"}>
      <Outlet />
    </PublicFrame>
  );
}

function PublicFrame({ busy, children }: { busy: boolean; children: React.ReactNode }) {
  const { t } = useTranslation(["public", "common"]);
  return (
    <div className="public-page">
      <header className="public-header">
        <span className="public-brand">{t("common:app.name")}</span>
        <LanguageMenu />
      </header>
      {busy ? (
        <div
          className="public-progress"
          role="progressbar"
          aria-label={t("frame.loading")}
          data-testid="public-loading"
        />
      ) : null}
      <main className="public-main" aria-busy={busy || undefined}>
        {children}
      </main>
      <footer className="public-footer">{t("frame.readOnly")}</footer>
    </div>
  );
}

/** The page's language: a GET form back to the same page with ?lng (the other parameters kept). */
function LanguageMenu() {
  const { t } = useTranslation("public");
  const root = useRouteLoaderData<RootLoader>("root");
  const location = useLocation();
  const submit = useSubmit();
  const kept = [...new URLSearchParams(location.search)].filter(([k]) => k !== "lng");
  return (
    // The page's own path: a form in this pathless layout would otherwise post to "/".
    <Form method="GET" action={location.pathname} className="public-language" onChange={(e) => submit(e.currentTarget)}>
      {kept.map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <label htmlFor="public-lng" className="sr-only">
        {t("frame.language")}
      </label>
      <select id="public-lng" name="lng" defaultValue={root?.locale ?? "en"} key={root?.locale}>
        {SUPPORTED_LANGUAGES.map((l) => (
          <option key={l} value={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit" className="btn btn-small">
          {t("frame.apply")}
        </button>
      </noscript>
    </Form>
  );
}

export function ErrorBoundary() {
  return (
    <PublicFrame busy={false}>
      <PublicErrorBoundary />
    </PublicFrame>
  );
}
