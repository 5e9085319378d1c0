import { describe, expect, it } from "vitest";
import { createCustomField, createOrganization, createUser, webCookie } from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { api } from "#tests/helpers/http";
import { createUserToken } from "~/models/user-token.server";
import { db } from "~/utils/db.server";

// The screen forms moved onto conform (decision 010), posted as a browser without JavaScript
// posts them: the page that comes back shows the error beside its field, keeps what was typed
// (never a password or a code) and nothing changes.

/** The `.field` block of the page that holds the input named `name`. */
function fieldOf(html: string, name: string) {
  const at = html.indexOf(`name="${name}"`);
  expect(at, `an input named ${name}`).toBeGreaterThan(-1);
  const start = html.lastIndexOf('<div class="field', at);
  const end = html.indexOf("</div>", at);
  return html.slice(start, end);
}

describe("screen forms without JavaScript", () => {
  it("custom field value row: a negative rank is refused beside the rank, the typed rank kept", async () => {
    const org = await createOrganization({ features: ["custom_fields"] });
    const admin = await createUser(org.id, { role: "admin" });
    const field = await createCustomField(org.id, { key: "block", name: "Block" });
    const inserted = await db()
      .insertInto("custom_field_values")
      .values({ organization_id: org.id, custom_field_id: field.id, value: "B-12", rank: 4 })
      .executeTakeFirstOrThrow();
    const valueId = Number(inserted.insertId);
    const cookie = await webCookie(admin.id);
    const before = await snapshotTables();
    const r = await api(`/custom_fields/${field.id}`, {
      cookie,
      form: { intent: "value", value_id: String(valueId), rank: "-3", archived: "on" },
    });
    expect(r.status).toBe(422);
    const row = fieldOf(r.data, "rank");
    expect(row).toContain("Enter a whole number from 0 to 100000.");
    expect(row).toContain('value="-3"');
    expect(await snapshotTables()).toEqual(before);
    const ok = await api(`/custom_fields/${field.id}`, {
      cookie,
      form: { intent: "value", value_id: String(valueId), rank: "7" },
    });
    expect(ok.status).toBe(302);
    const saved = await db()
      .selectFrom("custom_field_values")
      .select(["rank", "archived"])
      .where("id", "=", valueId)
      .executeTakeFirstOrThrow();
    expect({ rank: saved.rank, archived: !!saved.archived }).toEqual({ rank: 7, archived: false });
  });

  it("two-factor: a wrong code and a wrong proof are refused beside their fields and never sent back", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "admin" });
    const cookie = await webCookie(user.id);
    expect((await api("/settings/account", { cookie, form: { intent: "enable_2fa" } })).status).toBe(200);
    const wrong = await api("/settings/account", { cookie, form: { intent: "confirm_2fa", otp_code: "x1y2z3" } });
    expect(wrong.status).toBe(422);
    expect(fieldOf(wrong.data, "otp_code")).toContain("The one-time code is not valid.");
    expect(wrong.data).not.toContain("x1y2z3");
    const blank = await api("/settings/account", { cookie, form: { intent: "confirm_2fa", otp_code: " " } });
    expect(blank.status).toBe(422);
    expect(fieldOf(blank.data, "otp_code")).toContain("Enter the one-time code from your authenticator app.");
    const row = await db()
      .selectFrom("users")
      .select(["otp_enabled", "otp_secret"])
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(!!row.otp_enabled).toBe(false);
    expect(row.otp_secret).toBeNull();
  });

  it("reset page: a weak password is refused beside the field, and neither password comes back", async () => {
    const org = await createOrganization();
    const user = await createUser(org.id, { role: "viewer" });
    const token = await createUserToken(db(), { userId: user.id, purpose: "password_reset" });
    const hash = async () =>
      (await db().selectFrom("users").select("password_hash").where("id", "=", user.id).executeTakeFirstOrThrow())
        .password_hash;
    const before = await hash();
    const r = await api(`/reset_password/${token}`, {
      form: { new_password: "weakpass", password_confirmation: "weakpass-typo" },
    });
    expect(r.status).toBe(422);
    expect(fieldOf(r.data, "new_password")).toContain("At least 12 characters");
    expect(fieldOf(r.data, "password_confirmation")).toContain("The passwords do not match.");
    expect(r.data).not.toContain("weakpass");
    expect(await hash()).toBe(before);
  });

  it("expired password change: the e-mail is kept, the passwords are not", async () => {
    const r = await api("/login", {
      form: {
        intent: "change_password",
        email: "kept@example.test",
        current_password: "Old-secret-1!",
        new_password: "short",
        password_confirmation: "short",
      },
    });
    expect(r.status).toBe(422);
    expect(r.data).toContain('value="kept@example.test"');
    expect(fieldOf(r.data, "new_password")).toContain("At least 12 characters");
    expect(r.data).not.toContain("Old-secret-1!");
    expect(r.data).not.toContain('value="short"');
  });

  it("billing: a quantity of 0 is refused beside the field and kept; a trial of no devices is refused", async () => {
    const org = await createOrganization();
    const admin = await createUser(org.id, { role: "admin" });
    const cookie = await webCookie(admin.id);
    const before = await snapshotTables();
    const r = await api("/billing?index", {
      cookie,
      form: { intent: "checkout", package_id: "pro_subscription", period: "12", quantity: "0" },
    });
    expect(r.status).toBe(422);
    const block = r.data.slice(r.data.indexOf('data-testid="package-pro_subscription"'));
    const quantity = fieldOf(block, "quantity");
    expect(quantity).toContain("At least one device is needed.");
    expect(quantity).toContain('value="0"');
    const trial = await api("/billing?index", {
      cookie,
      form: {
        intent: "trial",
        period: "1",
        seats_pro_subscription: "0",
        seats_container_subscription: "0",
        seats_lumber_subscription: "0",
        seats_log_counter_subscription: "0",
      },
    });
    expect(trial.status).toBe(422);
    expect(trial.data).toContain("Choose at least one plan.");
    const tooMany = await api("/billing?index", {
      cookie,
      form: { intent: "trial", period: "1", seats_pro_subscription: "5" },
    });
    expect(tooMany.status).toBe(422);
    expect(fieldOf(tooMany.data, "seats_pro_subscription")).toContain('value="5"');
    expect(await snapshotTables()).toEqual(before);
  });
});
