import { describe, expect, it } from "vitest";
import { apiToken, createOrganization, createStorage, createUser, webCookie } from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { api } from "#tests/helpers/http";
import { db } from "~/utils/db.server";

// The admin screens that take an id answer 404 for another organisation's record (and change
// nothing when posted to), 403 for non-admins; forms work as plain posts.
async function twoOrganisations() {
  const mine = await createOrganization({ features: ["custom_fields", "timber_management", "diameter_profiles"] });
  const admin = await createUser(mine.id, { role: "admin" });
  const theirs = await createOrganization({ features: ["custom_fields", "timber_management", "diameter_profiles"] });
  const other = await createUser(theirs.id, { role: "admin" });
  return { mine, admin, theirs, other, cookie: await webCookie(admin.id) };
}

describe("admin screens with ids", () => {
  it("answer 404 for other organisations' users, devices, custom fields and timber rows, and change nothing on POST", async () => {
    const { theirs, other, cookie } = await twoOrganisations();
    const device = await db()
      .insertInto("devices")
      .values({ organization_id: theirs.id, name: "Their phone", hw_id: "x", token_hash: "f".repeat(64) })
      .executeTakeFirstOrThrow();
    const field = await db()
      .insertInto("custom_fields")
      .values({ organization_id: theirs.id, name: "F", key: "f", source_key: "measurement", data_type: "string" })
      .executeTakeFirstOrThrow();
    const species = await db()
      .insertInto("wood_types")
      .values({ organization_id: theirs.id, name: "Their teak" })
      .executeTakeFirstOrThrow();
    const paths = [
      `/users/${other.id}`,
      `/devices/${Number(device.insertId)}`,
      `/custom_fields/${Number(field.insertId)}`,
      `/timber/species/${Number(species.insertId)}`,
      "/timber/species/1",
    ];
    for (const path of paths) expect((await api(path, { cookie })).status, path).toBe(404);
    const before = await snapshotTables();
    const posts: Array<[string, Record<string, string>]> = [
      [`/users/${other.id}`, { intent: "rename", name: "Hacked" }],
      [`/users/${other.id}`, { intent: "delete" }],
      [`/devices/${Number(device.insertId)}`, { intent: "rename", name: "Hacked" }],
      [`/devices/${Number(device.insertId)}`, { intent: "delete" }],
      [`/custom_fields/${Number(field.insertId)}`, { intent: "update", name: "Hacked" }],
      [`/timber/species/${Number(species.insertId)}`, { intent: "save", name: "Hacked" }],
    ];
    for (const [path, form] of posts) expect((await api(path, { cookie, form })).status, path).toBe(404);
    expect(await snapshotTables()).toEqual(before);
  });

  it("non-admins get 403 on the admin screens; the settings account tab is for everyone", async () => {
    const org = await createOrganization();
    const viewer = await createUser(org.id, { role: "viewer" });
    const cookie = await webCookie(viewer.id);
    for (const path of [
      "/users",
      "/users/new",
      "/devices",
      "/devices/new",
      "/custom_fields",
      "/timber/species",
      "/settings/organization",
    ]) {
      expect((await api(path, { cookie })).status, path).toBe(403);
    }
    expect((await api("/settings/account", { cookie })).status).toBe(200);
    const settings = await api("/settings", { cookie });
    expect(settings.headers.get("location")).toBe("/settings/account");
  });

  it("plain form posts: settings profile and organisation save, unknown intents answer 400", async () => {
    const { mine, admin, cookie } = await twoOrganisations();
    const storage = await createStorage(mine.id);
    const r = await api("/settings/account", {
      cookie,
      form: {
        intent: "profile",
        name: "Mari",
        time_zone: "Europe/Helsinki",
        volume_unit: "ft^3",
        rounding_precision: "4",
        locale: "fi",
      },
    });
    expect(r.status).toBe(302);
    expect(
      await db()
        .selectFrom("users")
        .select(["name", "time_zone", "volume_unit", "rounding_precision", "locale"])
        .where("id", "=", admin.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ name: "Mari", time_zone: "Europe/Helsinki", volume_unit: "ft^3", rounding_precision: 4, locale: "fi" });
    const bad = await api("/settings/organization", {
      cookie,
      form: {
        intent: "save",
        name: "Mine",
        vat_code: "XX1",
        invoice_email: "",
        default_storage_id: String(storage.id),
      },
    });
    expect(bad.status).toBe(422);
    const ok = await api("/settings/organization", {
      cookie,
      form: {
        intent: "save",
        name: "Mine Ltd",
        vat_code: "FI12345678",
        invoice_email: "bills@mine.test",
        default_storage_id: String(storage.id),
      },
    });
    expect(ok.status).toBe(302);
    expect(
      await db()
        .selectFrom("organizations")
        .select(["name", "vat_code", "default_storage_id"])
        .where("id", "=", mine.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ name: "Mine Ltd", vat_code: "FI12345678", default_storage_id: storage.id });
    expect((await api("/settings/account", { cookie, form: { intent: "nope" } })).status).toBe(400);
  });

  it("GET /storage_groups lists only the organisation's groups", async () => {
    const { mine, theirs, admin } = await twoOrganisations();
    await db()
      .insertInto("storage_groups")
      .values([
        { organization_id: mine.id, name: "North" },
        { organization_id: theirs.id, name: "Secret" },
      ])
      .execute();
    const r = await api("/api/web_app/storage_groups", { token: await apiToken(admin.id) });
    expect(r.data.map((g: { name: string }) => g.name)).toEqual(["North"]);
  });

  it("/timber forms as plain posts: the price on its basis, the archived box, refusals beside the fields", async () => {
    const { mine, cookie } = await twoOrganisations();
    const species = await db()
      .insertInto("wood_types")
      .values({ organization_id: mine.id, name: "Pine" })
      .executeTakeFirstOrThrow();
    const created = await api("/timber/assortments/new", {
      cookie,
      form: {
        intent: "save",
        name: "Pine logs",
        wood_type_id: String(species.insertId),
        wood_quality_id: "",
        volume_unit: "m^3",
        price_basis: "log",
        price: "12,50",
      },
    });
    expect(created.status).toBe(302);
    const row = () =>
      db()
        .selectFrom("assortments")
        .select(["id", "price_cents", "price_per_log_cents", "archived", "wood_quality_id"])
        .where("organization_id", "=", mine.id)
        .executeTakeFirstOrThrow();
    const first = await row();
    expect(first).toMatchObject({ price_cents: null, price_per_log_cents: 1250, wood_quality_id: null });
    const edited = await api(`/timber/assortments/${first.id}`, {
      cookie,
      form: {
        intent: "save",
        name: "Pine logs",
        wood_type_id: String(species.insertId),
        volume_unit: "m^3",
        price_basis: "volume",
        price: "",
        archived: "on",
      },
    });
    expect(edited.status).toBe(302);
    expect(await row()).toMatchObject({ price_cents: null, price_per_log_cents: null, archived: true });
    const before = await snapshotTables();
    const bad = await api("/timber/culls/new", {
      cookie,
      form: { intent: "save", reason: "Rot", min: "30", max: "10" },
    });
    expect(bad.status).toBe(422);
    expect(bad.data).toContain("The maximum must not be below the minimum.");
    expect(bad.data).toMatch(/value="30"/);
    expect(await snapshotTables()).toEqual(before);
  });
});
