import path from "node:path";
import { flatRoutes } from "remix-flat-routes";
import { routeFileIgnores } from "../../remix.config.js";

type DefineRoute = (routePath: string | undefined, file: string, ...rest: unknown[]) => void;

/**
 * The route files of `<appDir>/routes`, relative to that folder (`api+/web_app+/users+/$id.ts`),
 * found exactly as remix.config.js finds them: server, client, test and `__` files beside a
 * route are not routes.
 */
export function routeFiles(appDir = "app"): string[] {
  const files: string[] = [];
  flatRoutes(
    "routes",
    (defineNested: (defineRoute: DefineRoute) => void) => {
      defineNested((_path, file, ...rest) => {
        files.push(path.relative("routes", file));
        const children = rest.find((r) => typeof r === "function") as (() => void) | undefined;
        children?.();
      });
      return {};
    },
    { appDir, ignoredRouteFiles: routeFileIgnores },
  );
  return files.sort();
}

/**
 * Every route under `<appDir>/routes` with its Remix route id (`routes/_app+/users+/$id`, what
 * `?_data=` names) and its full URL pattern (`/users/:id`), nested paths joined.
 */
export function routeEntries(appDir = "app"): { file: string; id: string; url: string }[] {
  const entries: { file: string; id: string; url: string }[] = [];
  const parents: string[] = [];
  flatRoutes(
    "routes",
    (defineNested: (defineRoute: DefineRoute) => void) => {
      defineNested((routePath, file, ...rest) => {
        const full = [...parents, routePath ?? ""].filter(Boolean).join("/");
        const options = rest.find((r) => r && typeof r === "object") as { id?: string } | undefined;
        entries.push({
          file: path.relative("routes", file),
          id: options?.id ?? file.replace(/\.[^/.]+$/, ""),
          url: "/" + full,
        });
        const children = rest.find((r) => typeof r === "function") as (() => void) | undefined;
        parents.push(routePath ?? "");
        children?.();
        parents.pop();
      });
      return {};
    },
    { appDir, ignoredRouteFiles: routeFileIgnores },
  );
  return entries.sort((a, b) => a.file.localeCompare(b.file));
}
