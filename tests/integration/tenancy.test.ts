import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { db } from "~/utils/db.server";
import { apiToken, createMeasurement, createOrganization, createStorage, createUser } from "#tests/factories";
import { api } from "#tests/helpers/http";
import { expectOutsiderGets404 } from "#tests/helpers/tenancy";

/**
 * Every API route must say how it keeps organisations apart, and the check runs here:
 * - "id": a user of another organisation asking for this organisation's record gets 404 and nothing changes;
 * - "list": another organisation's user sees none of this organisation's rows;
 * - "own": the route only ever acts on the caller's own session, account or channels (tested in its own file);
 * - "public": no organisation data (sign-in, device pairing).
 * A new route file without an entry fails the first test.
 */
type World = { organizationId: number; storageId: number; measurementId: number; marker: string };
type Check =
  | { kind: "id"; call: (w: World, token: string) => Promise<{ status: number; data: unknown }> }
  | { kind: "list"; path: string }
  | { kind: "own" | "public"; why: string };

const ROUTES: Record<string, Check> = {
  "api.web_app.logins.ts": { kind: "public", why: "signs in; answers a token for the credentials' owner" },
  "api.web_app.logout.ts": { kind: "own", why: "revokes the token it was called with" },
  "api.web_app.account.ts": { kind: "own", why: "the caller's own account" },
  "api.web_app.organizations.ts": { kind: "own", why: "the caller's own memberships" },
  "api.web_app.realtime.token.ts": { kind: "own", why: "token limited to the caller's channels" },
  "realtime.ts": { kind: "own", why: "only the caller's user and organisation channels (realtime.test.ts)" },
  "api.web_app.volume_formulas.ts": { kind: "public", why: "the built-in formulas, the same for everyone" },
  "api.web_app.$.ts": { kind: "public", why: "404 for unknown paths" },
  "api.device.pairings.ts": { kind: "public", why: "pairs by an activation code; answers the code's organisation only" },
  "api.device.$.ts": { kind: "public", why: "404 for unknown device paths" },
  "api.web_app.storages.list.ts": { kind: "list", path: "/api/web_app/storages/list" },
  "api.web_app.assortments.ts": { kind: "list", path: "/api/web_app/assortments" },
  "api.web_app.wood_types.ts": { kind: "list", path: "/api/web_app/wood_types" },
  "api.web_app.wood_qualities.ts": { kind: "list", path: "/api/web_app/wood_qualities" },
  "api.web_app.users.switch_organization.$id.ts": {
    kind: "id",
    call: (w, token) => api(`/api/web_app/users/switch_organization/${w.organizationId}`, { method: "PATCH", token }),
  },
  "files.measurements.$id.$variant.ts": {
    kind: "id",
    call: (w, token) => api(`/files/measurements/${w.measurementId}/original`, { token }),
  },
};

const ROUTE_FILE = /^(api\.|files\.|realtime)/;

async function world(): Promise<World> {
  const marker = `secret-${Math.random().toString(36).slice(2)}`;
  const org = await createOrganization({ name: marker });
  await createUser(org.id, { role: "admin" });
  const storage = await createStorage(org.id, { name: `${marker} yard` });
  const m = await createMeasurement(org.id, storage.id);
  await db().updateTable("measurements").set({ photo_key: "organizations/0/missing.jpg" }).where("id", "=", m.id).execute();
  await db().insertInto("assortments").values({ organization_id: org.id, name: `${marker} sawlog` }).execute();
  await db().insertInto("wood_types").values({ organization_id: org.id, name: `${marker} species` }).execute();
  await db().insertInto("wood_qualities").values({ organization_id: org.id, name: `${marker} grade` }).execute();
  return { organizationId: org.id, storageId: storage.id, measurementId: m.id, marker };
}

describe("tenancy of every API route", () => {
  const files = fs.readdirSync("app/routes").filter((f) => ROUTE_FILE.test(f));

  it("every API and file route has a tenancy check", () => {
    expect(files.filter((f) => !(f in ROUTES))).toEqual([]);
    expect(Object.keys(ROUTES).filter((f) => !files.includes(f))).toEqual([]);
  });

  for (const [file, check] of Object.entries(ROUTES)) {
    if (check.kind === "id") {
      it(`${file}: another organisation's record answers 404 and nothing changes`, async () => {
        const w = await world();
        await expectOutsiderGets404(({ token }) => check.call(w, token));
      });
    }
    if (check.kind === "list") {
      it(`${file}: lists none of another organisation's rows`, async () => {
        const w = await world();
        const other = await createOrganization();
        const user = await createUser(other.id, { role: "admin" });
        const { status, data } = await api(check.path, { token: await apiToken(user.id) });
        expect(status).toBe(200);
        expect(JSON.stringify(data)).not.toContain(w.marker);
      });
    }
  }
});
