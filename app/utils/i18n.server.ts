import fs from "node:fs";
import path from "node:path";
import { createCookie } from "@remix-run/node";
import { RemixI18Next } from "remix-i18next/server";
import i18nConfig, { NAMESPACES, SUPPORTED_LANGUAGES, isLanguage, type Language } from "~/i18n";
import { getLocaleOfSignedInUser } from "./session.server";
import type { Resource } from "i18next";

// The chosen language of a visitor who is not signed in (the login page's picker).
export const languageCookie = createCookie("lng", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
});

function loadResources(): Resource {
  const dir = path.resolve(process.cwd(), "locales");
  const resources: Resource = {};
  for (const lng of SUPPORTED_LANGUAGES) {
    resources[lng] = {};
    for (const ns of NAMESPACES) {
      const file = path.join(dir, lng, `${ns}.json`);
      resources[lng][ns] = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {};
    }
  }
  return resources;
}

let resources: Resource | undefined;
export function translations(): Resource {
  resources ??= loadResources();
  return resources;
}

export const i18nServer = new RemixI18Next({
  detection: {
    supportedLanguages: [...SUPPORTED_LANGUAGES],
    fallbackLanguage: "en",
    cookie: languageCookie,
    // The signed-in account's locale wins over everything else.
    order: ["custom", "searchParams", "cookie", "header"],
    findLocale: getLocaleOfSignedInUser,
  },
  i18next: {
    ...i18nConfig,
    get resources() {
      return translations();
    },
  },
});

export async function getLanguage(request: Request): Promise<Language> {
  const lng = await i18nServer.getLocale(request);
  return isLanguage(lng) ? lng : "en";
}

let version: string | undefined;
/** Changes whenever a translation changes, so browsers never keep stale strings. */
export function localesVersion(): string {
  if (!version) {
    const text = JSON.stringify(translations());
    let h = 0;
    for (let i = 0; i < text.length; i++) h = (Math.imul(31, h) + text.charCodeAt(i)) | 0;
    version = (h >>> 0).toString(36);
  }
  return version;
}
