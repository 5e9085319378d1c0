import fs from "node:fs";
import i18next from "i18next";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { beforeAll, describe, expect, it, vi } from "vitest";

const routeError = vi.hoisted(() => ({ current: undefined as unknown }));
// The root loader's request (id and path) and the page's path: the id shows only when they match.
const rootRequest: { current: { id: string; path: string } | undefined } = { current: undefined };
vi.mock("@remix-run/react", () => ({
  useRouteError: () => routeError.current,
  useRouteLoaderData: () => (rootRequest.current ? { request: rootRequest.current } : undefined),
  useLocation: () => ({ pathname: "/measurements/timber" }),
  useNavigate: () => () => {},
  isRouteErrorResponse: (e: { status?: number; internal?: boolean }) =>
    typeof e === "object" && e !== null && "status" in e && "internal" in e,
}));

const { GeneralErrorBoundary } = await import("./general-error-boundary");
const i18n = i18next.createInstance();

beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: "en",
    defaultNS: "common",
    resources: { en: { common: JSON.parse(fs.readFileSync("locales/en/common.json", "utf8")) } },
  });
});

function render(error: unknown) {
  routeError.current = error;
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <GeneralErrorBoundary />
    </I18nextProvider>,
  );
}

describe("GeneralErrorBoundary", () => {
  it("shows the not-found notice with Go back for 404", () => {
    const html = render({ status: 404, statusText: "Not Found", internal: false, data: null });
    expect(html).toContain('data-testid="not-found"');
    expect(html).toContain("Go back");
  });

  it("shows the not-allowed notice for 403", () => {
    expect(render({ status: 403, statusText: "Forbidden", internal: false, data: null })).toContain(
      'data-testid="not-allowed"',
    );
  });

  it("shows the generic error screen with a reload for anything unexpected, never the error itself", () => {
    const html = render(new Error("SELECT * FROM secret_table failed"));
    expect(html).toContain('data-testid="error-screen"');
    expect(html).toContain("Reload");
    expect(html).not.toContain("secret_table");
  });

  it("shows the request id of the request that failed, and none after navigating elsewhere", () => {
    rootRequest.current = { id: "req-4f2a", path: "/measurements/timber" };
    expect(render(new Error("boom"))).toContain("req-4f2a");
    rootRequest.current = { id: "req-4f2a", path: "/reports" };
    expect(render(new Error("boom"))).not.toContain("req-4f2a");
    rootRequest.current = undefined;
  });
});
