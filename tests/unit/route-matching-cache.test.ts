import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

// The web process matches every request's path three times against ~200 routes (our request
// log, Remix's handler, its router). @remix-run/router 1.23 flattened, ranked and compiled the
// whole route tree on each match: a third of the server's CPU per request. patches/ caches the
// ranked branches per route array and the compiled path patterns (docs/decisions/027). The web
// server loads the CommonJS build, so that is the one checked here.
const router = createRequire(import.meta.url)("@remix-run/router") as typeof import("@remix-run/router");

describe("route matching (patched @remix-run/router)", () => {
  it("flattens and ranks a route array once: a route added to the same array later is not seen", () => {
    const routes: Array<{ id: string; path: string }> = [{ id: "a", path: "/a/:id" }];
    expect(router.matchRoutes(routes, "/a/1")?.[0].params).toEqual({ id: "1" });
    routes.push({ id: "b", path: "/b" });
    expect(router.matchRoutes(routes, "/b")).toBeNull();
    // A new array (a new build) is flattened afresh.
    expect(router.matchRoutes([...routes], "/b")?.[0].route.id).toBe("b");
  });

  it("still ranks static segments before dynamic ones and splats last", () => {
    const routes = [
      { id: "splat", path: "/measurements/*" },
      { id: "dynamic", path: "/measurements/:kind" },
      { id: "static", path: "/measurements/timber" },
    ];
    const id = (path: string) => router.matchRoutes(routes, path)?.[0].route.id;
    for (let i = 0; i < 3; i++) {
      expect(id("/measurements/timber")).toBe("static");
      expect(id("/measurements/lumber")).toBe("dynamic");
      expect(id("/measurements/timber/deleted")).toBe("splat");
    }
  });

  it("tries only the branches whose leading static segments fit, and keeps their rank order", () => {
    const routes = [
      {
        id: "root",
        path: "",
        children: [
          { id: "any", path: "*" },
          { id: "lang", path: ":lang/about" },
          { id: "api", path: "api/web_app/enabled_features" },
          { id: "api-kind", path: "api/:kind/search" },
          { id: "files", path: "files/*" },
          { id: "home", index: true },
        ],
      },
    ];
    const id = (path: string) => router.matchRoutes(routes, path)?.at(-1)?.route.id;
    expect(id("/")).toBe("home");
    expect(id("/API/Web_App/enabled_features/")).toBe("api");
    expect(id("/api/web_app/search")).toBe("api-kind");
    expect(id("/api/about")).toBe("lang");
    expect(id("/files")).toBe("files");
    expect(id("/files/a/b")).toBe("files");
    expect(id("//api/web_app/enabled_features")).toBe("any");
    expect(id("/nothing/here")).toBe("any");
  });

  it("gives each match its own params, from one compiled pattern", () => {
    expect(router.matchPath("/storages/:id", "/storages/7")?.params).toEqual({ id: "7" });
    expect(router.matchPath("/storages/:id", "/storages/8")?.params).toEqual({ id: "8" });
    expect(router.matchPath({ path: "/storages", end: false }, "/storages/8")?.pathnameBase).toBe("/storages");
    expect(router.matchPath({ path: "/storages", end: true }, "/storages/8")).toBeNull();
  });
});
