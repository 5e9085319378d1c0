import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createOrganization, createUser, webCookie } from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { baseUrl } from "#tests/helpers/http";
import { routeEntries } from "#tests/helpers/route-files";

/**
 * The shell's access guard (requireAppUser / requireAppAdmin) runs in every `_app+` loader and
 * action, not only in the layout's: each route file is called on its own (Remix's `?_data=<route
 * id>` runs exactly that route's loader or action) by an unverified account, which must be sent to
 * /verification, and by an account that never passed device setup, sent to /setup. A new `_app+`
 * route that forgets the guard fails here.
 */
const entries = routeEntries().filter((e) => e.file.startsWith("_app+/"));

const isLayout = (file: string) => /(^|\/)_layout\.tsx$/.test(file);

/** A URL that reaches the route: params filled in; a layout is reached through a route inside its folder. */
function urlOf(entry: (typeof entries)[number]): string {
  const fill = (url: string) => url.replace(/:[^/]+/g, "1").replace(/\*$/, "no-such-screen");
  if (!isLayout(entry.file)) return fill(entry.url);
  const folder = path.dirname(entry.file) + "/";
  const inside = entries.find((e) => e.file.startsWith(folder) && !isLayout(e.file));
  if (!inside) throw new Error(`no route inside ${entry.file}`);
  return fill(inside.url);
}

function hasAction(file: string) {
  const source = fs.readFileSync(path.join("app/routes", file), "utf8");
  return /export (async )?function action\b|export const action\b|export \{[^}]*\baction\b/.test(source);
}

async function call(entry: (typeof entries)[number], method: "GET" | "POST", cookie: string) {
  const url = `${baseUrl()}${urlOf(entry)}?_data=${encodeURIComponent(entry.id)}`;
  const response = await fetch(url, {
    method,
    headers: {
      Cookie: cookie,
      Origin: baseUrl(),
      ...(method === "POST" ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
    },
    body: method === "POST" ? new URLSearchParams({ intent: "save", name: "guard-test" }) : undefined,
    redirect: "manual",
  });
  await response.text();
  return { status: response.status, redirect: response.headers.get("X-Remix-Redirect") };
}

describe("the shell's access guard on every _app+ route", () => {
  it("finds the shell's route files", () => {
    expect(entries.length).toBeGreaterThan(30);
    expect(entries.map((e) => e.file)).toContain("_app+/users+/new.tsx");
  });

  it.each([
    ["an unverified account", { verified: false }, "/verification"],
    ["an account that never passed device setup (no devices)", { setupDone: false }, "/setup"],
  ] as const)("%s is sent away by every loader and action, and nothing changes", async (_who, opts, target) => {
    const org = await createOrganization({
      features: ["custom_fields", "timber_management", "diameter_profiles", "lumber", "exports"],
    });
    const user = await createUser(org.id, { role: "admin", ...opts });
    const cookie = await webCookie(user.id);
    const before = await snapshotTables();
    const wrong: string[] = [];
    for (const entry of entries) {
      const get = await call(entry, "GET", cookie);
      if (get.status !== 204 || get.redirect !== target) wrong.push(`GET ${entry.file}: ${get.status} ${get.redirect}`);
      const post = await call(entry, "POST", cookie);
      const expected = hasAction(entry.file) ? { status: 204, redirect: target } : { status: 405, redirect: null };
      if (post.status !== expected.status || post.redirect !== expected.redirect)
        wrong.push(`POST ${entry.file}: ${post.status} ${post.redirect}`);
    }
    expect(wrong).toEqual([]);
    expect(await snapshotTables()).toEqual(before);
  });

  it("lets a verified account past device setup in (the check can tell the difference)", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "admin" });
    const r = await call(
      entries.find((e) => e.file === "_app+/users+/new.tsx")!,
      "GET",
      await webCookie(user.id),
    );
    expect(r).toEqual({ status: 200, redirect: null });
  });
});
