import { describe, expect, it } from "vitest";
import { apiToken, createOrganization, createUser, PASSWORD, webCookie } from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { api } from "#tests/helpers/http";
import { db } from "~/utils/db.server";
import { currentTotp, newTotpSecret } from "~/utils/totp.server";

// README "Security": sessions end with the password; two-factor changes need the owner; an
// invitation cannot make someone else's account a member.

const NEW_PASSWORD = "Spruce-Logs-2026!";
const whoAmI = (token: string) => api("/api/web_app/account", { token });

async function member() {
  const org = await createOrganization({ name: "Aspen Timber" });
  const user = await createUser(org.id, { role: "measurer" });
  return { org, user };
}

describe("sessions end with the password", () => {
  it("a password change keeps the changing session and revokes every other one", async () => {
    const { user } = await member();
    const [current, phone, browserCookie] = [
      await apiToken(user.id),
      await apiToken(user.id),
      await webCookie(user.id),
    ];
    const r = await api(`/api/web_app/users/${user.id}`, {
      method: "PATCH",
      token: current,
      json: {
        user: { current_password: PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      },
    });
    expect(r.status).toBe(200);
    expect((await whoAmI(current)).status).toBe(200);
    expect((await whoAmI(phone)).status).toBe(401);
    expect((await api("/settings/account", { cookie: browserCookie })).status).toBe(302);
  });

  it("the settings screen's password change keeps its own cookie and revokes the API tokens", async () => {
    const { user } = await member();
    const cookie = await webCookie(user.id);
    const token = await apiToken(user.id);
    const r = await api("/settings/account", {
      cookie,
      form: {
        intent: "password",
        current_password: PASSWORD,
        password: NEW_PASSWORD,
        password_confirmation: NEW_PASSWORD,
      },
    });
    expect(r.status).toBe(302);
    expect((await api("/settings/account", { cookie })).status).toBe(200);
    expect((await whoAmI(token)).status).toBe(401);
  });

  it("a reset by the e-mailed link revokes every session", async () => {
    const { user } = await member();
    const token = await apiToken(user.id);
    await api("/api/web_app/logins/forgot_password", { json: { email: user.email } });
    const mail = await db()
      .selectFrom("mail_outbox")
      .select("text_body")
      .where("to_address", "=", user.email)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    const resetToken = mail.text_body.match(/\/reset_password\/([A-Za-z0-9_-]{43})/)![1];
    const r = await api("/api/web_app/logins/reset_password", {
      json: { token: resetToken, new_password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
    });
    expect(r.status).toBe(200);
    expect((await whoAmI(token)).status).toBe(401);
  });
});

describe("two-factor needs the owner", () => {
  it("POST /two_factors without a code does not turn it on; a wrong code is refused", async () => {
    const { user } = await member();
    const token = await apiToken(user.id);
    const started = await api("/api/web_app/two_factors", { method: "POST", token });
    expect(started.status).toBe(202);
    expect(started.data.backup_codes).toBeUndefined();
    const row = await db()
      .selectFrom("users")
      .select(["otp_enabled", "otp_secret", "otp_pending_secret"])
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ otp_enabled: false, otp_secret: null });
    const wrong = currentTotp(row.otp_pending_secret!) === "000000" ? "111111" : "000000";
    const refused = await api("/api/web_app/two_factors", { token, json: { otp_code: wrong } });
    expect(refused.status).toBe(422);
    expect(
      (await api("/api/web_app/logins", { json: { credentials: { email: user.email, password: PASSWORD } } })).status,
    ).toBe(200);
  });

  it("turning it off or replacing it needs the password or a current code", async () => {
    const { user } = await member();
    const secret = newTotpSecret();
    await db().updateTable("users").set({ otp_enabled: true, otp_secret: secret }).where("id", "=", user.id).execute();
    const token = await apiToken(user.id);
    const before = await snapshotTables();
    expect((await api("/api/web_app/two_factors", { method: "DELETE", token })).status).toBe(422);
    expect((await api("/api/web_app/two_factors", { method: "POST", token })).status).toBe(422);
    expect(await snapshotTables()).toEqual(before);
    expect(
      (await api("/api/web_app/two_factors", { method: "DELETE", token, json: { password: "Wrong-password-1!" } }))
        .status,
    ).toBe(422);
    const after = await db()
      .selectFrom("users")
      .select(["otp_enabled", "failed_login_count"])
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ otp_enabled: true, failed_login_count: 1 });
    const replaced = await api("/api/web_app/two_factors", { token, json: { password: PASSWORD } });
    expect(replaced.status).toBe(202);
    expect(
      (await api("/api/web_app/two_factors", { method: "DELETE", token, json: { otp_code: currentTotp(secret) } }))
        .status,
    ).toBe(204);
    const row = await db()
      .selectFrom("users")
      .select("otp_enabled")
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.otp_enabled).toBe(false);
  });

  it("wrong proofs count towards the lockout: a borrowed session cannot guess the password", async () => {
    const { user } = await member();
    await db()
      .updateTable("users")
      .set({ otp_enabled: true, otp_secret: newTotpSecret() })
      .where("id", "=", user.id)
      .execute();
    const token = await apiToken(user.id);
    for (let i = 0; i < 5; i++)
      await api("/api/web_app/two_factors", { method: "DELETE", token, json: { password: `Guess-${i}-password!` } });
    const row = await db()
      .selectFrom("users")
      .select("locked_until")
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.locked_until!.getTime()).toBeGreaterThan(Date.now());
    expect(
      (await api("/api/web_app/two_factors", { method: "DELETE", token, json: { password: PASSWORD } })).status,
    ).toBe(422);
  });

  it("the settings screen asks for the password before turning two-factor off", async () => {
    const { user } = await member();
    await db()
      .updateTable("users")
      .set({ otp_enabled: true, otp_secret: newTotpSecret() })
      .where("id", "=", user.id)
      .execute();
    const cookie = await webCookie(user.id);
    expect((await api("/settings/account", { cookie, form: { intent: "disable_2fa" } })).status).toBe(422);
    const ok = await api("/settings/account", { cookie, form: { intent: "disable_2fa", proof: PASSWORD } });
    expect(ok.status).toBe(302);
  });
});

describe("invitations of an existing account", () => {
  async function twoOrganisations() {
    const mine = await createOrganization({ name: "Aspen Timber" });
    const admin = await createUser(mine.id, { role: "admin" });
    const theirs = await createOrganization({ name: "Birch Mill" });
    const person = await createUser(theirs.id, { role: "admin", name: "Mari Mets" });
    return { mine, admin, theirs, person, token: await apiToken(admin.id) };
  }
  const rolesIn = (userId: number, organizationId: number) =>
    db()
      .selectFrom("roles")
      .select("name")
      .where("user_id", "=", userId)
      .where("organization_id", "=", organizationId)
      .execute();
  async function joinLink(email: string) {
    const mail = await db()
      .selectFrom("mail_outbox")
      .select(["subject", "text_body"])
      .where("to_address", "=", email)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    return { subject: mail.subject, token: mail.text_body.match(/\/join\/([A-Za-z0-9_-]{43})/)![1] };
  }

  it("makes no membership until the account accepts the e-mailed link", async () => {
    const s = await twoOrganisations();
    const r = await api("/api/web_app/users/invite_user", {
      token: s.token,
      json: { invite: { email: s.person.email } },
    });
    expect(r.status).toBe(201);
    expect(await rolesIn(s.person.id, s.mine.id)).toEqual([]);
    const { subject, token } = await joinLink(s.person.email);
    expect(subject).toContain("Aspen Timber");
    const page = await api(`/join/${token}`);
    expect(page.status).toBe(200);
    expect(page.data).toContain("Aspen Timber");
    expect((await api(`/join/${token}`, { form: { intent: "accept" } })).status).toBe(200);
    expect(await rolesIn(s.person.id, s.mine.id)).toEqual([{ name: "viewer" }]);
    // Used once.
    expect((await api(`/join/${token}`, { form: { intent: "accept" } })).status).toBe(404);
  });

  it("a declined invitation changes nothing but the link", async () => {
    const s = await twoOrganisations();
    await api("/api/web_app/users/invite_user", { token: s.token, json: { invite: { email: s.person.email } } });
    const { token } = await joinLink(s.person.email);
    expect((await api(`/join/${token}`, { form: { intent: "decline" } })).status).toBe(200);
    expect(await rolesIn(s.person.id, s.mine.id)).toEqual([]);
  });

  it("re-inviting keeps another organisation's pending invitation valid", async () => {
    const s = await twoOrganisations();
    const other = await createOrganization({ name: "Cedar Co" });
    const otherAdmin = await createUser(other.id, { role: "admin" });
    const fresh = "fresh.person@example.test";
    await api("/api/web_app/users/invite_user", {
      token: await apiToken(otherAdmin.id),
      json: { invite: { email: fresh } },
    });
    const first = await db()
      .selectFrom("user_tokens")
      .select(["id", "used_at"])
      .where("organization_id", "=", other.id)
      .executeTakeFirstOrThrow();
    await api("/api/web_app/users/invite_user", { token: s.token, json: { invite: { email: fresh } } });
    const after = await db()
      .selectFrom("user_tokens")
      .select("used_at")
      .where("id", "=", first.id)
      .executeTakeFirstOrThrow();
    expect(after.used_at).toBeNull();
  });

  it("an admin cannot rename a member: the name is the person's, in every organisation", async () => {
    const s = await twoOrganisations();
    await api("/api/web_app/users/invite_user", { token: s.token, json: { invite: { email: s.person.email } } });
    await api(`/join/${(await joinLink(s.person.email)).token}`, { form: { intent: "accept" } });
    const r = await api(`/api/web_app/users/${s.person.id}`, {
      method: "PATCH",
      token: s.token,
      json: { user: { name: "Hacked" } },
    });
    expect(r.status).toBe(403);
    const screen = await api(`/users/${s.person.id}`, {
      cookie: await webCookie(s.admin.id),
      form: { intent: "rename", name: "Hacked" },
    });
    expect(screen.status).toBe(403);
    const row = await db().selectFrom("users").select("name").where("id", "=", s.person.id).executeTakeFirstOrThrow();
    expect(row.name).toBe("Mari Mets");
  });
});
