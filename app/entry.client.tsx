import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import i18nConfig from "./i18n";

async function hydrate() {
  const lng = document.documentElement.lang || "en";
  // The server rendered in this language; fetch the same strings (one cached file per language).
  const response = await fetch(`/locales/${lng}?v=${document.documentElement.dataset.localesVersion ?? ""}`);
  const resources = response.ok ? await response.json() : {};
  await i18next.use(initReactI18next).init({ ...i18nConfig, lng, resources: { [lng]: resources } });

  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

// A page chunk that fails to load (a deploy replaced it) reloads the page once, as the spec asks.
window.addEventListener("unhandledrejection", (event) => {
  const message = String(event.reason?.message ?? event.reason ?? "");
  if (
    /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module/i.test(
      message,
    )
  ) {
    if (!sessionStorage.getItem("chunk-reload")) {
      sessionStorage.setItem("chunk-reload", "1");
      window.location.reload();
    }
  }
});
window.addEventListener("load", () => sessionStorage.removeItem("chunk-reload"));

hydrate();
