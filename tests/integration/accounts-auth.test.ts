import { describe, expect, it } from "vitest";
import { apiToken, createOrganization, createUser, PASSWORD } from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { api } from "#tests/helpers/http";
import { db } from "~/utils/db.server";
import { currentTotp, hashBackupCode, newTotpSecret } from "~/utils/totp.server";

const NEW_PASSWORD = "Spruce-Logs-2026!";

async function member(opts: Parameters<typeof createUser>[1] = {}) {
  const org = await createOrganization();
  return { org, ...(await createUser(org.id, { role: "measurer", ...opts })) };
}

const login = (email: string, password: string) =>
  api("/api/web_app/logins", { json: { credentials: { email, password } } });

async function lastMail(to: string) {
  return db()
    .selectFrom("mail_outbox")
    .selectAll()
    .where("to_address", "=", to)
    .orderBy("id", "desc")
    .executeTakeFirst();
}
function linkToken(text: string, path: string) {
  const m = text.match(new RegExp(`${path.replace(/[?/]/g, "\\$&")}([A-Za-z0-9_-]{43})`));
  if (!m) throw new Error(`no ${path} link in: ${text}`);
  return m[1];
}

describe("login lockout", () => {
  it("locks after 5 wrong passwords for 15 minutes; then even the right password answers ACCOUNT_LOCKED", async () => {
    const user = await member();
    for (let i = 0; i < 4; i++)
      expect((await login(user.email, "Wrong-password-1!")).data.error).toBe("INVALID_EMAIL_OR_PASSWORD");
    const fifth = await login(user.email, "Wrong-password-1!");
    expect(fifth.data.error).toBe("INVALID_EMAIL_OR_PASSWORD");
    const locked = await login(user.email, PASSWORD);
    expect(locked.status).toBe(403);
    expect(locked.data.error).toBe("ACCOUNT_LOCKED");
    const row = await db()
      .selectFrom("users")
      .select("locked_until")
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    const minutes = (row.locked_until!.getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThanOrEqual(15);
    // When the lock has passed the right password works again.
    await db()
      .updateTable("users")
      .set({ locked_until: new Date(Date.now() - 1000) })
      .where("id", "=", user.id)
      .execute();
    expect((await login(user.email, PASSWORD)).status).toBe(200);
  });

  it("a success resets the failure count", async () => {
    const user = await member();
    for (let i = 0; i < 4; i++) await login(user.email, "Wrong-password-1!");
    expect((await login(user.email, PASSWORD)).status).toBe(200);
    for (let i = 0; i < 4; i++) await login(user.email, "Wrong-password-1!");
    expect((await login(user.email, PASSWORD)).status).toBe(200);
  });

  it("answers CONTACT_SUPPORT for a disabled account", async () => {
    const user = await member();
    await db().updateTable("users").set({ disabled_at: new Date() }).where("id", "=", user.id).execute();
    const r = await login(user.email, PASSWORD);
    expect(r.status).toBe(403);
    expect(r.data.error).toBe("CONTACT_SUPPORT");
  });
});

describe("password expired and two-factor logins", () => {
  it("answers 400 password expired, then the change by email and current password lets the new one in", async () => {
    const user = await member();
    await db()
      .updateTable("users")
      .set({ password_expiry: new Date(Date.now() - 1000) })
      .where("id", "=", user.id)
      .execute();
    const r = await login(user.email, PASSWORD);
    expect(r.status).toBe(400);
    expect(r.data).toMatchObject({ error: "PASSWORD_EXPIRED", message: "password expired" });
    expect(r.data.access_token).toBeUndefined();

    const wrong = await api("/api/web_app/logins/reset_password", {
      json: {
        email: user.email,
        current_password: "Nope-nope-123!",
        new_password: NEW_PASSWORD,
        password_confirmation: NEW_PASSWORD,
      },
    });
    expect(wrong.status).toBe(401);
    const same = await api("/api/web_app/logins/reset_password", {
      json: { email: user.email, current_password: PASSWORD, new_password: PASSWORD, password_confirmation: PASSWORD },
    });
    expect(same.status).toBe(422);
    expect(same.data.error).toBe("PASSWORD_ALREADY_USED");
    const ok = await api("/api/web_app/logins/reset_password", {
      json: {
        email: user.email,
        current_password: PASSWORD,
        new_password: NEW_PASSWORD,
        password_confirmation: NEW_PASSWORD,
      },
    });
    expect(ok.status).toBe(200);
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
    // The expiry stays on, 30 days ahead.
    const row = await db()
      .selectFrom("users")
      .select("password_expiry")
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(Math.round((row.password_expiry!.getTime() - Date.now()) / 86_400_000)).toBe(30);
  });

  it("answers 202 for a two-factor account, then POST /logins/otp takes a TOTP or a single-use backup code", async () => {
    const user = await member();
    const secret = newTotpSecret();
    await db()
      .updateTable("users")
      .set({ otp_enabled: true, otp_secret: secret, otp_backup_codes: JSON.stringify([hashBackupCode("abcde-fghjk")]) })
      .where("id", "=", user.id)
      .execute();
    const first = await login(user.email, PASSWORD);
    expect(first.status).toBe(202);
    expect(first.data.access_token).toBeUndefined();
    const credentials = { email: user.email, password: PASSWORD };
    const wrong = await api("/api/web_app/logins/otp", {
      json: { credentials, otp_code: "000000" === currentTotp(secret) ? "111111" : "000000" },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.data.error).toBe("INVALID_OTP_CODE");
    const ok = await api("/api/web_app/logins/otp", { json: { credentials, otp_code: currentTotp(secret) } });
    expect(ok.status).toBe(200);
    expect(ok.data.access_token).toBeTruthy();
    const backup = await api("/api/web_app/logins/otp", { json: { credentials, otp_code: "ABCDE-FGHJK" } });
    expect(backup.status).toBe(200);
    const again = await api("/api/web_app/logins/otp", { json: { credentials, otp_code: "abcde-fghjk" } });
    expect(again.status).toBe(401);
    const badPassword = await api("/api/web_app/logins/otp", {
      json: { credentials: { ...credentials, password: "Wrong-password-1!" }, otp_code: currentTotp(secret) },
    });
    expect(badPassword.data.error).toBe("INVALID_EMAIL_OR_PASSWORD");
    expect((await api("/api/web_app/logins/otp", { json: { credentials } })).status).toBe(422);
  });
});

describe("forgot and reset password", () => {
  it("mails a single-use link; the token is stored hashed; old passwords are refused", async () => {
    const user = await member();
    const sent = await api("/api/web_app/logins/forgot_password", { json: { email: user.email } });
    expect(sent.status).toBe(200);
    const mail = await lastMail(user.email);
    const token = linkToken(mail!.text_body, "/reset_password/");
    const rows = await db().selectFrom("user_tokens").selectAll().where("user_id", "=", user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).not.toContain(token);
    expect(Math.round((rows[0].expires_at.getTime() - Date.now()) / 60_000)).toBe(60);

    const weak = await api("/api/web_app/logins/reset_password", {
      json: { token, new_password: "short", password_confirmation: "short" },
    });
    expect(weak.status).toBe(422);
    expect(weak.data.error).toBe("PASSWORD_DOES_NOT_MEET_REQUIREMENTS");
    const reused = await api("/api/web_app/logins/reset_password", {
      json: { token, new_password: PASSWORD, password_confirmation: PASSWORD },
    });
    expect(reused.data.error).toBe("PASSWORD_ALREADY_USED");
    const mismatch = await api("/api/web_app/logins/reset_password", {
      json: { token, new_password: NEW_PASSWORD, password_confirmation: `${NEW_PASSWORD}x` },
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.data.errors.password_confirmation).toBeTruthy();
    const ok = await api("/api/web_app/logins/reset_password", {
      json: { token, new_password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
    });
    expect(ok.status).toBe(200);
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
    expect((await login(user.email, PASSWORD)).status).toBe(401);
    const twice = await api("/api/web_app/logins/reset_password", {
      json: { token, new_password: "Another-Pass-77!", password_confirmation: "Another-Pass-77!" },
    });
    expect(twice.status).toBe(400);
    expect(twice.data.error).toBe("INVALID_PASSWORD_RESET_TOKEN");
    // The previous password stays in the history: going back to it is refused.
    await api("/api/web_app/logins/forgot_password", { json: { email: user.email } });
    const token2 = linkToken((await lastMail(user.email))!.text_body, "/reset_password/");
    const back = await api("/api/web_app/logins/reset_password", {
      json: { token: token2, new_password: PASSWORD, password_confirmation: PASSWORD },
    });
    expect(back.data.error).toBe("PASSWORD_ALREADY_USED");
  });

  it("an expired token is refused; an unknown email gets the same answer and no mail", async () => {
    const user = await member();
    await api("/api/web_app/logins/forgot_password", { json: { email: user.email } });
    const token = linkToken((await lastMail(user.email))!.text_body, "/reset_password/");
    await db()
      .updateTable("user_tokens")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    const r = await api("/api/web_app/logins/reset_password", {
      json: { token, new_password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
    });
    expect(r.data.error).toBe("INVALID_PASSWORD_RESET_TOKEN");
    const before = await db().selectFrom("mail_outbox").selectAll().execute();
    const unknown = await api("/api/web_app/logins/forgot_password", { json: { email: "nobody@example.test" } });
    expect(unknown.status).toBe(200);
    expect(await db().selectFrom("mail_outbox").selectAll().execute()).toHaveLength(before.length);
    expect((await api("/api/web_app/logins/forgot_password", { json: { email: "not-an-email" } })).status).toBe(422);
  });
});

describe("POST /registration and verification", () => {
  const signup = (extra: Record<string, unknown> = {}) => ({
    signup: {
      name: "Pine Valley Sawmill",
      contact_person: "Mari Tamm",
      phone: "+372 5555 1234",
      country_alpha2: "EE",
      admin_email: "mari@pinevalley.test",
      admin_password: "Kuusk-Metsad-2026!",
      industry: "sawmill",
      dashboards: ["timber", "truck"],
      ...extra,
    },
  });

  it("creates the organisation, its admin, a default storage and the activation code, and mails a verification link", async () => {
    const r = await api("/api/web_app/registration", { json: signup() });
    expect(r.status).toBe(201);
    const org = await db()
      .selectFrom("organizations")
      .selectAll()
      .where("id", "=", r.data.organization_id)
      .executeTakeFirstOrThrow();
    expect(org).toMatchObject({ name: "Pine Valley Sawmill", country: "EE", contact_person: "Mari Tamm" });
    expect(org.device_activation_code).toMatch(/^[A-Z0-9]{8}$/);
    const storage = await db()
      .selectFrom("storages")
      .selectAll()
      .where("organization_id", "=", org.id)
      .executeTakeFirstOrThrow();
    expect(org.default_storage_id).toBe(storage.id);
    const user = await db().selectFrom("users").selectAll().where("id", "=", r.data.user_id).executeTakeFirstOrThrow();
    expect(user.verified_at).toBeNull();
    expect(user.verification_sent_at).not.toBeNull();
    const roles = await db().selectFrom("roles").selectAll().where("user_id", "=", user.id).execute();
    expect(roles).toMatchObject([{ name: "admin", assignable_type: "Organization", assignable_id: org.id }]);

    const token = linkToken((await lastMail("mari@pinevalley.test"))!.text_body, "/verification?token=");
    const res = await fetch(`${(await import("#tests/helpers/http")).baseUrl()}/verification?token=${token}`, {
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    const after = await db()
      .selectFrom("users")
      .select("verified_at")
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(after.verified_at).not.toBeNull();
  });

  it("refuses a taken email, a password with a name word, weak passwords and missing fields with 422, creating nothing", async () => {
    const existing = await member();
    const before = await snapshotTables();
    const taken = await api("/api/web_app/registration", { json: signup({ admin_email: existing.email }) });
    expect(taken.status).toBe(422);
    expect(taken.data.message).toBe("Email has already been taken");
    const named = await api("/api/web_app/registration", { json: signup({ admin_password: "Valley-Strong-2026!" }) });
    expect(named.status).toBe(422);
    expect(named.data.errors["signup.admin_password"]).toEqual(["accounts:password.containsName"]);
    const weak = await api("/api/web_app/registration", { json: signup({ admin_password: "alllowercase12!" }) });
    expect(weak.data.errors["signup.admin_password"]).toEqual(["accounts:password.rule.upper"]);
    const mismatch = await api("/api/web_app/registration", {
      json: signup({ admin_password_confirmation: "Other-Secret-77!" }),
    });
    expect(mismatch.data.errors["signup.admin_password_confirmation"]).toBeTruthy();
    const missing = await api("/api/web_app/registration", { json: { signup: { admin_email: "x@y.test" } } });
    expect(Object.keys(missing.data.errors)).toEqual(
      expect.arrayContaining([
        "signup.name",
        "signup.contact_person",
        "signup.industry",
        "signup.country_alpha2",
        "signup.phone",
        "signup.admin_password",
      ]),
    );
    expect(await snapshotTables()).toEqual(before);
  });

  it("POST /users/resend_verification sends a new link and retires the old one; 422 once verified; 401 without a token", async () => {
    const user = await member({ verified: false });
    const token = await apiToken(user.id);
    expect((await api("/api/web_app/users/resend_verification", { method: "POST", token })).status).toBe(200);
    const first = linkToken((await lastMail(user.email))!.text_body, "/verification?token=");
    expect((await api("/api/web_app/users/resend_verification", { method: "POST", token })).status).toBe(200);
    const second = linkToken((await lastMail(user.email))!.text_body, "/verification?token=");
    expect(second).not.toBe(first);
    const live = await db()
      .selectFrom("user_tokens")
      .selectAll()
      .where("user_id", "=", user.id)
      .where("used_at", "is", null)
      .execute();
    expect(live).toHaveLength(1);
    await db().updateTable("users").set({ verified_at: new Date() }).where("id", "=", user.id).execute();
    expect((await api("/api/web_app/users/resend_verification", { method: "POST", token })).status).toBe(422);
    expect((await api("/api/web_app/users/resend_verification", { method: "POST" })).status).toBe(401);
  });
});

describe("the access guard", () => {
  it("sends an unverified user to /verification and a user without devices or setup to /setup", async () => {
    const { webCookie } = await import("#tests/factories");
    const unverified = await member({ verified: false });
    let r = await api("/measurements/timber", { cookie: await webCookie(unverified.id) });
    expect(r.status).toBe(302);
    expect(r.headers.get("location")).toBe("/verification");
    const fresh = await member({ setupDone: false });
    r = await api("/measurements/timber", { cookie: await webCookie(fresh.id) });
    expect(r.headers.get("location")).toBe("/setup");
    const done = await member();
    r = await api("/measurements/timber", { cookie: await webCookie(done.id) });
    expect(r.status).toBe(200);
  });
});
