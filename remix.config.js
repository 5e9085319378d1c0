import { flatRoutes } from "remix-flat-routes";

// app/routes is grouped by area in "+" folders (docs/decisions/009-route-layout.md). Beside a route
// may sit its server code (*.server.ts), client-only code (*.client.ts), its tests and the pieces
// its area's routes share (__name.tsx): none of those is a route. Exported for the tests that
// enumerate route files (tests/helpers/route-files.ts), so they count exactly what Remix serves.
export const routeFileIgnores = [
  "**/.*",
  "**/*.css",
  "**/*.test.{js,jsx,ts,tsx}",
  "**/__*.*",
  "**/*.server.*",
  "**/*.client.*",
];

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // Routes come from remix-flat-routes (below), not from Remix's own file convention.
  ignoredRouteFiles: ["**/*"],
  routes: async (defineRoutes) => flatRoutes("routes", defineRoutes, { ignoredRouteFiles: routeFileIgnores }),
  serverModuleFormat: "esm",
  serverDependenciesToBundle: [/^remix-i18next/],
  browserNodeBuiltinsPolyfill: { modules: { crypto: true } },
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: false,
  },
};
