import { describe, expect, it } from "vitest";
import { addRole, apiToken, createOrganization, createUser, webCookie } from "#tests/factories";
import { api } from "#tests/helpers/http";
import { expectOutsiderGets404 } from "#tests/helpers/tenancy";
import { db } from "~/utils/db.server";

async function memberOfTwo() {
  const first = await createOrganization({ name: "First" });
  const second = await createOrganization({ name: "Second" });
  const user = await createUser(first.id, { role: "admin" });
  await addRole(user.id, second.id, "viewer");
  return { first, second, user };
}

const recentOrg = async (userId: number) =>
  (await db().selectFrom("users").select("recent_organization_id").where("id", "=", userId).executeTakeFirstOrThrow())
    .recent_organization_id;

describe("PATCH /api/web_app/users/switch_organization/{id}", () => {
  it("switches to another organisation of the user; later calls run in it", async () => {
    const { second, user } = await memberOfTwo();
    const token = await apiToken(user.id);
    const r = await api(`/api/web_app/users/switch_organization/${second.id}`, { method: "PATCH", token });
    expect(r.status).toBe(200);
    expect(await recentOrg(user.id)).toBe(second.id);
    const account = await api("/api/web_app/account", { token });
    // In the second organisation the user is a viewer.
    expect(account.data.roles).toEqual([
      { id: expect.any(Number), name: "viewer", type: "Organization", resource_id: second.id },
    ]);
  });

  it("takes the switcher's plain form post and redirects to /", async () => {
    const { second, user } = await memberOfTwo();
    const cookie = await webCookie(user.id);
    const r = await api(`/api/web_app/users/switch_organization/${second.id}`, { cookie, form: {} });
    expect(r.status).toBe(302);
    expect(r.headers.get("location")).toBe("/");
    expect(await recentOrg(user.id)).toBe(second.id);
  });

  it("answers 404 for an organisation the user does not belong to, and changes nothing", async () => {
    const { first } = await memberOfTwo();
    await expectOutsiderGets404(({ token }) =>
      api(`/api/web_app/users/switch_organization/${first.id}`, { method: "PATCH", token }),
    );
  });

  it("answers 404 for a malformed id and 405 for GET", async () => {
    const { user } = await memberOfTwo();
    const token = await apiToken(user.id);
    expect((await api("/api/web_app/users/switch_organization/abc", { method: "PATCH", token })).status).toBe(404);
    expect((await api("/api/web_app/users/switch_organization/1", { token })).status).toBe(405);
  });
});
