import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { apiToken, createOrganization, createStorage, createUser } from "#tests/factories";
import { api } from "#tests/helpers/http";
import { LOG_FORMULA_KEYS } from "~/domain/log-volume";
import { db } from "~/utils/db.server";

const lookups = (lng: string) => JSON.parse(fs.readFileSync(`locales/${lng}/lookups.json`, "utf8"));

async function twoOrganisations() {
  const mine = await createOrganization({ name: "Mine" });
  const theirs = await createOrganization({ name: "Theirs" });
  const user = await createUser(mine.id, { role: "viewer", locale: "et" });
  return { mine, theirs, user, token: await apiToken(user.id) };
}

describe("lookups", () => {
  it("GET /wood_types: the 14 built-in species translated in the account's language, plus the organisation's own", async () => {
    const { mine, theirs, token } = await twoOrganisations();
    await db()
      .insertInto("wood_types")
      .values([
        { organization_id: mine.id, name: "Our cedar" },
        { organization_id: theirs.id, name: "Their teak" },
      ])
      .execute();
    const { status, data } = await api("/api/web_app/wood_types", { token });
    expect(status).toBe(200);
    const builtIn = data.filter((w: { organization_id: number | null }) => w.organization_id === null);
    expect(builtIn.map((w: { id: number }) => w.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1001, 1002, 1003, 1004]);
    const et = lookups("et");
    expect(builtIn.find((w: { id: number }) => w.id === 1).name).toBe(et.wood_types["1"]);
    expect(builtIn.find((w: { id: number }) => w.id === 1).name).not.toBe("Pine");
    const names = data.map((w: { name: string }) => w.name);
    expect(names).toContain("Our cedar");
    expect(names).not.toContain("Their teak");
  });

  it("GET /wood_qualities: built-in grades and the organisation's own only", async () => {
    const { mine, theirs, token } = await twoOrganisations();
    await db()
      .insertInto("wood_qualities")
      .values([
        { organization_id: mine.id, name: "Export select" },
        { organization_id: theirs.id, name: "Secret grade" },
      ])
      .execute();
    const { data } = await api("/api/web_app/wood_qualities", { token });
    const names = data.map((w: { name: string }) => w.name);
    expect(names).toContain("Export select");
    expect(names).not.toContain("Secret grade");
    expect(data.filter((w: { organization_id: number | null }) => w.organization_id === null)).toHaveLength(5);
  });

  it("GET /volume_formulas: every formula of app/domain with translated names", async () => {
    const { token } = await twoOrganisations();
    const { data } = await api("/api/web_app/volume_formulas", { token });
    expect(data.map((f: { key: string }) => f.key)).toEqual(LOG_FORMULA_KEYS);
    const cylinder = data.find((f: { key: string }) => f.key === "cylinder");
    expect(cylinder).toMatchObject({
      unit: "m^3",
      name: lookups("et").formulas.cylinder.name,
      inputs: ["topDiameterCm", "lengthM"],
    });
    expect(data.find((f: { key: string }) => f.key === "doyle").unit).toBe("fbm");
  });

  it("GET /storages/list and /assortments: the organisation's rows only", async () => {
    const { mine, theirs, token } = await twoOrganisations();
    const own = await createStorage(mine.id, { name: "Our yard" });
    await createStorage(theirs.id, { name: "Their yard" });
    await db()
      .insertInto("assortments")
      .values([
        { organization_id: mine.id, name: "Our sawlog" },
        { organization_id: theirs.id, name: "Their sawlog" },
      ])
      .execute();
    const storages = await api("/api/web_app/storages/list", { token });
    expect(storages.data.map((s: { id: number; name: string }) => [s.id, s.name])).toEqual([[own.id, "Our yard"]]);
    const assortments = await api("/api/web_app/assortments", { token });
    expect(assortments.data.map((a: { name: string }) => a.name)).toEqual(["Our sawlog"]);
  });

  it("GET /organizations: the user's organisations with the current one marked", async () => {
    const { mine, user, token } = await twoOrganisations();
    const second = await createOrganization({ name: "Another" });
    await db()
      .insertInto("roles")
      .values({
        user_id: user.id,
        organization_id: second.id,
        name: "viewer",
        assignable_type: "Organization",
        assignable_id: second.id,
      })
      .execute();
    const { data } = await api("/api/web_app/organizations", { token });
    expect(data).toEqual([
      { id: second.id, name: "Another", current: false },
      { id: mine.id, name: "Mine", current: true },
    ]);
  });
});
