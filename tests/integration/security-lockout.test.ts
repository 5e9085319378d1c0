import { describe, expect, it } from "vitest";
import { createOrganization, createUser, PASSWORD } from "#tests/factories";
import { api } from "#tests/helpers/http";
import { db } from "~/utils/db.server";

const login = (email: string, password: string) =>
  api("/api/web_app/logins", { json: { credentials: { email, password } } });

describe("lockout under parallel requests", () => {
  it("20 wrong passwords sent at once count 20 and lock the account; the right password is then refused", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "measurer" });
    const answers = await Promise.all(Array.from({ length: 20 }, () => login(user.email, "Wrong-password-1!")));
    for (const a of answers) expect([401, 403]).toContain(a.status);
    const row = await db()
      .selectFrom("users")
      .select(["failed_login_count", "locked_until"])
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.failed_login_count).toBe(20);
    expect(row.locked_until!.getTime()).toBeGreaterThan(Date.now());
    const right = await login(user.email, PASSWORD);
    expect(right.status).toBe(403);
    expect(right.data.error).toBe("ACCOUNT_LOCKED");
  });

  it("a failure after an expired lock starts a new series of five", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "measurer" });
    await db()
      .updateTable("users")
      .set({ failed_login_count: 7, locked_until: new Date(Date.now() - 1000) })
      .where("id", "=", user.id)
      .execute();
    expect((await login(user.email, "Wrong-password-1!")).data.error).toBe("INVALID_EMAIL_OR_PASSWORD");
    const row = await db()
      .selectFrom("users")
      .select(["failed_login_count", "locked_until"])
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ failed_login_count: 1, locked_until: null });
    expect((await login(user.email, PASSWORD)).status).toBe(200);
  });
});
