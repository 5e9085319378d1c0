import { describe, expect, it } from "vitest";
import { apiToken, createOrganization, createUser, PASSWORD } from "#tests/factories";
import { api } from "#tests/helpers/http";
import { db } from "~/utils/db.server";
import { hashToken } from "~/utils/token.server";

async function signedUpUser() {
  const org = await createOrganization();
  return createUser(org.id, { role: "measurer" });
}

describe("POST /api/web_app/logins", () => {
  it("answers a bearer token that authenticates later calls", async () => {
    const user = await signedUpUser();
    const before = Math.floor(Date.now() / 1000);
    const { status, data } = await api("/api/web_app/logins", {
      json: { credentials: { email: user.email.toUpperCase(), password: PASSWORD } },
    });
    expect(status).toBe(200);
    expect(data.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(data.created_at).toBeGreaterThanOrEqual(before - 1);
    expect(data.expires_in).toBe(12 * 3600);
    const account = await api("/api/web_app/account", { token: data.access_token });
    expect(account.status).toBe(200);
    expect(account.data.email).toBe(user.email);
    // Only the hash of the token is stored.
    const row = await db().selectFrom("sessions").selectAll().where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(data.access_token));
    expect(row.kind).toBe("api");
  });

  it("refuses a wrong password or an unknown email with INVALID_EMAIL_OR_PASSWORD and creates no session", async () => {
    const user = await signedUpUser();
    for (const credentials of [
      { email: user.email, password: "Wrong-password-1!" },
      { email: "nobody@example.test", password: PASSWORD },
    ]) {
      const { status, data } = await api("/api/web_app/logins", { json: { credentials } });
      expect(status).toBe(401);
      expect(data.error).toBe("INVALID_EMAIL_OR_PASSWORD");
      expect(data.message).toBe("The email or password is incorrect.");
      expect(data.access_token).toBeUndefined();
    }
    expect(await db().selectFrom("sessions").selectAll().execute()).toHaveLength(0);
  });

  it("answers ACCOUNT_LOCKED while a lock lasts, even with the right password", async () => {
    const user = await signedUpUser();
    await db()
      .updateTable("users")
      .set({ locked_until: new Date(Date.now() + 60_000) })
      .where("id", "=", user.id)
      .execute();
    const { status, data } = await api("/api/web_app/logins", {
      json: { credentials: { email: user.email, password: PASSWORD } },
    });
    expect(status).toBe(403);
    expect(data.error).toBe("ACCOUNT_LOCKED");
  });

  it("answers 422 with field errors for a malformed payload", async () => {
    const { status, data } = await api("/api/web_app/logins", { json: { credentials: { email: "not-an-email" } } });
    expect(status).toBe(422);
    expect(Object.keys(data.errors).sort()).toEqual(["credentials.email", "credentials.password"]);
    const notJson = await api("/api/web_app/logins", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      form: undefined,
      json: undefined,
    });
    expect(notJson.status).toBe(422);
  });
});

describe("bearer tokens", () => {
  it("answers 401 invalid_token without a token, with an unknown one, and after logout", async () => {
    const user = await signedUpUser();
    expect((await api("/api/web_app/account")).data).toEqual({ error: "invalid_token" });
    expect((await api("/api/web_app/account", { token: "made-up" })).status).toBe(401);

    const token = await apiToken(user.id);
    expect((await api("/api/web_app/account", { token })).status).toBe(200);
    const logout = await api("/api/web_app/logout", { method: "POST", token });
    expect(logout.status).toBe(204);
    const after = await api("/api/web_app/account", { token });
    expect(after.status).toBe(401);
    expect(after.data).toEqual({ error: "invalid_token" });
  });

  it("answers 401 expired_token once the session expired", async () => {
    const user = await signedUpUser();
    const token = await apiToken(user.id);
    await db()
      .updateTable("sessions")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    const { status, data } = await api("/api/web_app/account", { token });
    expect(status).toBe(401);
    expect(data).toEqual({ error: "expired_token" });
  });

  it("answers JSON 404 for unknown API paths, and 401 before that without a token", async () => {
    const user = await signedUpUser();
    const token = await apiToken(user.id);
    expect(await api("/api/web_app/no_such_thing", { token })).toMatchObject({
      status: 404,
      data: { error: "not_found" },
    });
    expect(await api("/api/web_app/no_such_thing")).toMatchObject({ status: 401 });
  });
});
