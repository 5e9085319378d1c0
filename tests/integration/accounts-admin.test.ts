import { Secret } from "otpauth";
import { describe, expect, it } from "vitest";
import { apiToken, createOrganization, createStorage, createUser, PASSWORD } from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { api } from "#tests/helpers/http";
import { expectOutsiderGets404 } from "#tests/helpers/tenancy";
import { db } from "~/utils/db.server";
import { currentTotp } from "~/utils/totp.server";

async function orgWithAdmin() {
  const org = await createOrganization({ name: "Aspen Timber" });
  const admin = await createUser(org.id, { role: "admin", email: `admin-${org.id}@aspen.test` });
  const token = await apiToken(admin.id);
  return { org, admin, token };
}

describe("GET /users", () => {
  it("lists only the organisation's users with their roles, searches by email part, and is admin-only", async () => {
    const { org, admin, token } = await orgWithAdmin();
    const viewer = await createUser(org.id, { role: "viewer", email: "viewer-x@aspen.test" });
    const other = await createOrganization();
    await createUser(other.id, { email: "stranger@elsewhere.test" });
    const all = await api("/api/web_app/users", { token });
    expect(all.status).toBe(200);
    expect(all.data.map((u: { email: string }) => u.email).sort()).toEqual([admin.email, "viewer-x@aspen.test"].sort());
    expect(all.data.find((u: { id: number }) => u.id === viewer.id)).toMatchObject({
      roles: [{ name: "viewer", assignable_type: "Organization", assignable_id: org.id }],
      rounding_precision: 2,
      time_zone: "Europe/Tallinn",
    });
    const found = await api("/api/web_app/users?q=ER-X", { token });
    expect(found.data.map((u: { id: number }) => u.id)).toEqual([viewer.id]);
    const forbidden = await api("/api/web_app/users", { token: await apiToken(viewer.id) });
    expect(forbidden.status).toBe(403);
  });
});

describe("PATCH and DELETE /users/{id}", () => {
  it("a user renames themself; an admin may not rename a member (403); outsiders 404; only the user changes their password", async () => {
    const { org, token } = await orgWithAdmin();
    const measurer = await createUser(org.id, { role: "measurer" });
    const measurerToken = await apiToken(measurer.id);
    const r = await api(`/api/web_app/users/${measurer.id}`, {
      method: "PATCH",
      token: measurerToken,
      json: { user: { name: "Juhan Mets" } },
    });
    expect(r.status).toBe(200);
    expect(r.data.name).toBe("Juhan Mets");
    const byAdmin = await api(`/api/web_app/users/${measurer.id}`, {
      method: "PATCH",
      token,
      json: { user: { name: "Renamed by admin" } },
    });
    expect(byAdmin.status).toBe(403);
    expect(
      (await db().selectFrom("users").select("name").where("id", "=", measurer.id).executeTakeFirstOrThrow()).name,
    ).toBe("Juhan Mets");
    const other = await createUser(org.id, { role: "viewer" });
    expect(
      (
        await api(`/api/web_app/users/${other.id}`, {
          method: "PATCH",
          token: measurerToken,
          json: { user: { name: "X" } },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await api(`/api/web_app/users/${measurer.id}`, {
          method: "PATCH",
          token,
          json: { user: { password_expiry: true } },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await api(`/api/web_app/users/${measurer.id}`, {
          method: "PATCH",
          token: measurerToken,
          json: { user: { name: "" } },
        })
      ).status,
    ).toBe(422);
    await expectOutsiderGets404(({ token }) =>
      api(`/api/web_app/users/${measurer.id}`, { method: "PATCH", token, json: { user: { name: "Hacked" } } }),
    );
    await expectOutsiderGets404(({ token }) => api(`/api/web_app/users/${measurer.id}`, { method: "DELETE", token }));
  });

  it("the user changes their own password with the current one and toggles the 30-day expiry", async () => {
    const { org } = await orgWithAdmin();
    const user = await createUser(org.id, { role: "viewer" });
    const token = await apiToken(user.id);
    const url = `/api/web_app/users/${user.id}`;
    const wrong = await api(url, {
      method: "PATCH",
      token,
      json: {
        user: {
          current_password: "Wrong-pass-123!",
          password: "Birch-Forest-88!",
          password_confirmation: "Birch-Forest-88!",
        },
      },
    });
    expect(wrong.data.error).toBe("INVALID_CURRENT_PASSWORD");
    const weak = await api(url, {
      method: "PATCH",
      token,
      json: { user: { current_password: PASSWORD, password: "weak", password_confirmation: "weak" } },
    });
    expect(weak.data.error).toBe("PASSWORD_DOES_NOT_MEET_REQUIREMENTS");
    const same = await api(url, {
      method: "PATCH",
      token,
      json: { user: { current_password: PASSWORD, password: PASSWORD, password_confirmation: PASSWORD } },
    });
    expect(same.data.error).toBe("PASSWORD_ALREADY_USED");
    const ok = await api(url, {
      method: "PATCH",
      token,
      json: {
        user: {
          current_password: PASSWORD,
          password: "Birch-Forest-88!",
          password_confirmation: "Birch-Forest-88!",
          password_expiry: true,
        },
      },
    });
    expect(ok.status).toBe(200);
    const row = await db()
      .selectFrom("users")
      .select("password_expiry")
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(Math.round((row.password_expiry!.getTime() - Date.now()) / 86_400_000)).toBe(30);
    expect(
      (await api("/api/web_app/logins", { json: { credentials: { email: user.email, password: "Birch-Forest-88!" } } }))
        .status,
    ).toBe(200);
    await api(url, { method: "PATCH", token, json: { user: { password_expiry: false } } });
    expect(
      (await db().selectFrom("users").select("password_expiry").where("id", "=", user.id).executeTakeFirstOrThrow())
        .password_expiry,
    ).toBeNull();
  });

  it("DELETE removes another user (and the account when it belongs nowhere else); not oneself", async () => {
    const { org, admin, token } = await orgWithAdmin();
    const user = await createUser(org.id, { role: "viewer" });
    expect((await api(`/api/web_app/users/${admin.id}`, { method: "DELETE", token })).status).toBe(403);
    expect(
      (await api(`/api/web_app/users/${user.id}`, { method: "DELETE", token: await apiToken(user.id) })).status,
    ).toBe(403);
    expect((await api(`/api/web_app/users/${user.id}`, { method: "DELETE", token })).status).toBe(204);
    expect(await db().selectFrom("users").select("id").where("id", "=", user.id).executeTakeFirst()).toBeUndefined();
    expect((await api(`/api/web_app/users/${user.id}`, { method: "DELETE", token })).status).toBe(404);
  });
});

describe("POST /users/invite_user and /users/accept_invitation", () => {
  it("invites a new address; the mailed token sets the password and the user signs in verified", async () => {
    const { org, token } = await orgWithAdmin();
    const r = await api("/api/web_app/users/invite_user", {
      token,
      json: { invite: { email: "New.Person@aspen.test" } },
    });
    expect(r.status).toBe(201);
    expect(r.data.message).toBe("Invitation sent");
    const mail = await db()
      .selectFrom("mail_outbox")
      .selectAll()
      .where("to_address", "=", "new.person@aspen.test")
      .executeTakeFirstOrThrow();
    expect(mail.subject).toContain("Aspen Timber");
    const invitation = mail.text_body.match(/\/accept_invitation\/([A-Za-z0-9_-]{43})/)![1];
    const roles = await db().selectFrom("roles").selectAll().where("user_id", "=", r.data.user_id).execute();
    expect(roles).toMatchObject([{ name: "viewer", assignable_type: "Organization", assignable_id: org.id }]);
    // No password yet: signing in is impossible.
    expect(
      (
        await api("/api/web_app/logins", {
          json: { credentials: { email: "new.person@aspen.test", password: "Whatever-123!" } },
        })
      ).status,
    ).toBe(401);
    const weak = await api("/api/web_app/users/accept_invitation", {
      json: { invitation_token: invitation, password: "short", password_confirmation: "short" },
    });
    expect(weak.data.error).toBe("PASSWORD_DOES_NOT_MEET_REQUIREMENTS");
    const bad = await api("/api/web_app/users/accept_invitation", {
      json: { invitation_token: "x".repeat(43), password: "Larch-Stack-31!", password_confirmation: "Larch-Stack-31!" },
    });
    expect(bad.status).toBe(400);
    expect(bad.data.error).toBe("INVALID_PASSWORD_RESET_TOKEN");
    const ok = await api("/api/web_app/users/accept_invitation", {
      json: { invitation_token: invitation, password: "Larch-Stack-31!", password_confirmation: "Larch-Stack-31!" },
    });
    expect(ok.status).toBe(200);
    const user = await db().selectFrom("users").selectAll().where("id", "=", r.data.user_id).executeTakeFirstOrThrow();
    expect(user.verified_at).not.toBeNull();
    expect(
      (
        await api("/api/web_app/logins", {
          json: { credentials: { email: "new.person@aspen.test", password: "Larch-Stack-31!" } },
        })
      ).status,
    ).toBe(200);
    const again = await api("/api/web_app/users/accept_invitation", {
      json: { invitation_token: invitation, password: "Other-Stack-31!", password_confirmation: "Other-Stack-31!" },
    });
    expect(again.data.error).toBe("INVALID_PASSWORD_RESET_TOKEN");
  });

  it("warns with USER_EXISTS for a member, asks an existing account of another organisation, 403 for non-admins, 422 for a bad email", async () => {
    const { org, token } = await orgWithAdmin();
    const member = await createUser(org.id, { role: "viewer" });
    const memberToken = await apiToken(member.id);
    const before = await snapshotTables();
    const exists = await api("/api/web_app/users/invite_user", { token, json: { invite: { email: member.email } } });
    expect(exists.status).toBe(422);
    expect(exists.data.error).toBe("USER_EXISTS");
    expect((await api("/api/web_app/users/invite_user", { token, json: { invite: { email: "nope" } } })).status).toBe(
      422,
    );
    expect(
      (await api("/api/web_app/users/invite_user", { token: memberToken, json: { invite: { email: "a@b.test" } } }))
        .status,
    ).toBe(403);
    expect(await snapshotTables()).toEqual(before);
    const elsewhere = await createUser((await createOrganization()).id, { role: "admin" });
    const added = await api("/api/web_app/users/invite_user", { token, json: { invite: { email: elsewhere.email } } });
    expect(added.status).toBe(201);
    expect(added.data.user_id).toBe(elsewhere.id);
    // Only asked (README "Security"): no role here until the account accepts the e-mailed link.
    expect(await db().selectFrom("roles").select("id").where("user_id", "=", elsewhere.id).execute()).toHaveLength(1);
    expect(
      await db().selectFrom("user_tokens").select("purpose").where("user_id", "=", elsewhere.id).execute(),
    ).toEqual([{ purpose: "membership" }]);
  });
});

describe("POST and DELETE /roles", () => {
  it("assigns organisation and storage roles to another user; never to oneself; other organisations' users and storages 404", async () => {
    const { org, admin, token } = await orgWithAdmin();
    const user = await createUser(org.id, { role: "viewer" });
    const storage = await createStorage(org.id);
    const r = await api("/api/web_app/roles", {
      token,
      json: { role: { name: "measurer", user_id: user.id }, storage_id: storage.id },
    });
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({ name: "measurer", assignable_type: "Storage", assignable_id: storage.id });
    const orgRole = await api("/api/web_app/roles", {
      token,
      json: { role: { name: "admin", user_id: user.id, organization_id: org.id } },
    });
    expect(orgRole.data).toMatchObject({ assignable_type: "Organization", assignable_id: org.id });
    expect(
      (
        await api("/api/web_app/roles", {
          token,
          json: { role: { name: "admin", user_id: admin.id }, organization_id: org.id },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await api("/api/web_app/roles", {
          token,
          json: { role: { name: "boss", user_id: user.id }, organization_id: org.id },
        })
      ).status,
    ).toBe(422);
    expect(
      (await api("/api/web_app/roles", { token, json: { role: { name: "viewer", user_id: user.id } } })).status,
    ).toBe(422);
    const foreignStorage = await createStorage((await createOrganization()).id);
    expect(
      (
        await api("/api/web_app/roles", {
          token,
          json: { role: { name: "viewer", user_id: user.id }, storage_id: foreignStorage.id },
        })
      ).status,
    ).toBe(404);
    const plain = await createUser(org.id, { role: "measurer" });
    expect(
      (
        await api("/api/web_app/roles", {
          token: await apiToken(plain.id),
          json: { role: { name: "viewer", user_id: admin.id }, organization_id: org.id },
        })
      ).status,
    ).toBe(403);
    await expectOutsiderGets404(({ token }) =>
      api("/api/web_app/roles", { token, json: { role: { name: "admin", user_id: user.id }, storage_id: storage.id } }),
    );
    await expectOutsiderGets404(({ token }) => api(`/api/web_app/roles/${r.data.id}`, { method: "DELETE", token }));
    const ownRole = await db()
      .selectFrom("roles")
      .select("id")
      .where("user_id", "=", admin.id)
      .executeTakeFirstOrThrow();
    expect((await api(`/api/web_app/roles/${ownRole.id}`, { method: "DELETE", token })).status).toBe(403);
    expect((await api(`/api/web_app/roles/${r.data.id}`, { method: "DELETE", token })).status).toBe(204);
    expect(await db().selectFrom("roles").select("id").where("id", "=", r.data.id).executeTakeFirst()).toBeUndefined();
  });
});

describe("PATCH /organizations/{id}, PATCH /account and /two_factors", () => {
  it("saves the organisation with an EU VAT number; refuses a bad VAT or invoice email; 404 for another organisation; 403 for non-admins", async () => {
    const { org, token } = await orgWithAdmin();
    const storage = await createStorage(org.id);
    const r = await api(`/api/web_app/organizations/${org.id}`, {
      method: "PATCH",
      token,
      json: {
        organization: {
          name: "Aspen Timber OÜ",
          vat_code: "ee 123 456 789",
          invoice_email: "arved@aspen.test",
          city: "Tartu",
        },
      },
    });
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({
      name: "Aspen Timber OÜ",
      vat_code: "EE123456789",
      invoice_email: "arved@aspen.test",
      city: "Tartu",
    });
    expect(
      (
        await api(`/api/web_app/organizations/${org.id}`, {
          method: "PATCH",
          token,
          json: { default_storage_id: storage.id, phone: "+372 555" },
        })
      ).data.default_storage_id,
    ).toBe(storage.id);
    const foreign = await createStorage((await createOrganization()).id);
    const viewerToken = await apiToken((await createUser(org.id, { role: "viewer" })).id);
    const before = await snapshotTables();
    const bad = await api(`/api/web_app/organizations/${org.id}`, {
      method: "PATCH",
      token,
      json: { organization: { vat_code: "123456", invoice_email: "nope" } },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.data.errors).sort()).toEqual(["invoice_email", "vat_code"]);
    expect(
      (
        await api(`/api/web_app/organizations/${org.id}`, {
          method: "PATCH",
          token,
          json: { organization: { registration_code: "X" } },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await api(`/api/web_app/organizations/${org.id}`, {
          method: "PATCH",
          token,
          json: { default_storage_id: foreign.id },
        })
      ).status,
    ).toBe(422);
    expect(
      (await api(`/api/web_app/organizations/${org.id}`, { method: "PATCH", token: viewerToken, json: { city: "X" } }))
        .status,
    ).toBe(403);
    expect(await snapshotTables()).toEqual(before);
    await expectOutsiderGets404(({ token }) =>
      api(`/api/web_app/organizations/${org.id}`, { method: "PATCH", token, json: { city: "Elsewhere" } }),
    );
  });

  it("PATCH /account saves units, precision 1-4 and a listed time zone", async () => {
    const { token } = await orgWithAdmin();
    const ok = await api("/api/web_app/account", {
      method: "PATCH",
      token,
      json: { user: { time_zone: "America/Sao_Paulo", volume_unit: "stere", rounding_precision: 3, name: "Ann" } },
    });
    expect(ok.status).toBe(200);
    expect(ok.data).toMatchObject({
      time_zone: "America/Sao_Paulo",
      volume_unit: "stere",
      rounding_precision: 3,
      name: "Ann",
    });
    const bad = await api("/api/web_app/account", {
      method: "PATCH",
      token,
      json: { user: { time_zone: "Mars/Base", rounding_precision: 5 } },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.data.errors).sort()).toEqual(["user.rounding_precision", "user.time_zone"]);
  });

  it("POST /two_factors answers the otpauth url, a code of it turns two-factor on with 10 backup codes; the next login needs a code; DELETE with the password turns it off", async () => {
    const { admin, token } = await orgWithAdmin();
    const started = await api("/api/web_app/two_factors", { method: "POST", token });
    expect(started.status).toBe(202);
    const pending = new URL(started.data.url).searchParams.get("secret")!;
    const r = await api("/api/web_app/two_factors", { token, json: { otp_code: currentTotp(pending) } });
    expect(r.status).toBe(201);
    expect(r.data.url).toMatch(/^otpauth:\/\/totp\//);
    expect(r.data.backup_codes).toHaveLength(10);
    const row = await db().selectFrom("users").selectAll().where("id", "=", admin.id).executeTakeFirstOrThrow();
    expect(row.otp_backup_codes).toHaveLength(10);
    expect(row.otp_backup_codes).not.toContain(r.data.backup_codes[0]);
    const secret = new URL(r.data.url).searchParams.get("secret")!;
    expect(Secret.fromBase32(secret).base32).toBe(row.otp_secret);
    expect(
      (await api("/api/web_app/logins", { json: { credentials: { email: admin.email, password: PASSWORD } } })).status,
    ).toBe(202);
    const signedIn = await api("/api/web_app/logins/otp", {
      json: { credentials: { email: admin.email, password: PASSWORD }, otp_code: currentTotp(row.otp_secret!) },
    });
    expect(signedIn.status).toBe(200);
    expect(
      (await api("/api/web_app/two_factors", { method: "DELETE", token, json: { password: PASSWORD } })).status,
    ).toBe(204);
    expect(
      (await api("/api/web_app/logins", { json: { credentials: { email: admin.email, password: PASSWORD } } })).status,
    ).toBe(200);
    expect((await api("/api/web_app/two_factors", { method: "POST" })).status).toBe(401);
  });
});
