import { describe, expect, it } from "vitest";
import { apiToken, createOrganization, createUser } from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { api } from "#tests/helpers/http";
import { expectOutsiderGets404 } from "#tests/helpers/tenancy";
import { db } from "~/utils/db.server";

const ALL = ["timber_management", "diameter_profiles", "minmax_assortments"];
async function admin(features = ALL) {
  const org = await createOrganization({ features });
  const user = await createUser(org.id, { role: "admin" });
  return {
    org,
    token: await apiToken(user.id),
    viewerToken: await apiToken((await createUser(org.id, { role: "viewer" })).id),
  };
}

describe("species and qualities", () => {
  it("create, rename, archive own rows; built-in rows 403; timber_management needed; non-admins 403; outsiders 404", async () => {
    const { token, viewerToken } = await admin();
    for (const path of ["wood_types", "wood_qualities"]) {
      const created = await api(`/api/web_app/${path}`, { token, json: { name: "Siberian larch" } });
      expect(created.status).toBe(201);
      expect(created.data).toMatchObject({ name: "Siberian larch", archived: false });
      const id = created.data.id;
      expect(
        (await api(`/api/web_app/${path}/${id}`, { method: "PATCH", token, json: { name: "Larch" } })).data.name,
      ).toBe("Larch");
      expect((await api(`/api/web_app/${path}/${id}`, { method: "DELETE", token })).status).toBe(204);
      expect(
        (await api(`/api/web_app/${path}`, { token })).data.find((r: { id: number }) => r.id === id).archived,
      ).toBe(true);
      expect((await api(`/api/web_app/${path}/1`, { method: "PATCH", token, json: { name: "Mine now" } })).status).toBe(
        403,
      );
      expect((await api(`/api/web_app/${path}`, { token, json: { name: " " } })).status).toBe(422);
      expect((await api(`/api/web_app/${path}`, { token: viewerToken, json: { name: "X" } })).status).toBe(403);
      await expectOutsiderGets404(({ token }) =>
        api(`/api/web_app/${path}/${id}`, { method: "PATCH", token, json: { name: "X" } }),
      );
      await expectOutsiderGets404(({ token }) => api(`/api/web_app/${path}/${id}`, { method: "DELETE", token }));
    }
    const plain = await admin([]);
    expect((await api("/api/web_app/wood_types", { token: plain.token, json: { name: "X" } })).status).toBe(403);
  });
});

describe("assortments", () => {
  it("creates with species, bounds, price and unit; validates; minmax needs its feature; outsiders 404", async () => {
    const { token } = await admin();
    const body = {
      wood_characteristic: {
        name: "Pine sawlog 18-25",
        wood_type_id: 1,
        wood_quality_id: null,
        min: 18,
        max: 25,
        log_length: 4.9,
        price_cents: 6500,
        volume_unit: "m^3",
        diameter_percentage: 12.5,
      },
    };
    const created = await api("/api/web_app/assortments", { token, json: body });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      name: "Pine sawlog 18-25",
      wood_type_id: 1,
      min: 18,
      max: 25,
      price_cents: 6500,
      diameter_percentage: 12.5,
    });
    const id = created.data.id;
    const patched = await api(`/api/web_app/assortments/${id}`, {
      method: "PATCH",
      token,
      json: { wood_characteristic: { price_cents: null, price_per_log_cents: 450 } },
    });
    expect(patched.data).toMatchObject({ price_cents: null, price_per_log_cents: 450 });
    const before = await snapshotTables();
    const noSpecies = await api("/api/web_app/assortments", { token, json: { wood_characteristic: { name: "X" } } });
    expect(noSpecies.data.errors["wood_type_id"]).toBeTruthy();
    expect(
      (
        await api("/api/web_app/assortments", {
          token,
          json: { wood_characteristic: { ...body.wood_characteristic, diameter_percentage: 100 } },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await api("/api/web_app/assortments", {
          token,
          json: { wood_characteristic: { ...body.wood_characteristic, min: 30, max: 20 } },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await api("/api/web_app/assortments", {
          token,
          json: { wood_characteristic: { ...body.wood_characteristic, volume_unit: "stere" } },
        })
      ).status,
    ).toBe(422);
    expect(await snapshotTables()).toEqual(before);
    const noMinmax = await admin(["timber_management"]);
    expect((await api("/api/web_app/assortments", { token: noMinmax.token, json: body })).status).toBe(403);
    const { min: _a, max: _b, ...unbounded } = body.wood_characteristic;
    expect(
      (await api("/api/web_app/assortments", { token: noMinmax.token, json: { wood_characteristic: unbounded } }))
        .status,
    ).toBe(201);
    await expectOutsiderGets404(({ token }) =>
      api(`/api/web_app/assortments/${id}`, { method: "PATCH", token, json: { wood_characteristic: { name: "X" } } }),
    );
    await expectOutsiderGets404(({ token }) => api(`/api/web_app/assortments/${id}`, { method: "DELETE", token }));
    expect((await api(`/api/web_app/assortments/${id}`, { method: "DELETE", token })).status).toBe(204);
  });
});

describe("diameter profiles", () => {
  it("accepts bounded non-overlapping assortments only; feature-gated; outsiders 404", async () => {
    const { token } = await admin();
    const mk = async (name: string, min: number | null, max: number | null) =>
      (
        await api("/api/web_app/assortments", {
          token,
          json: { wood_characteristic: { name, wood_type_id: 1, min, max } },
        })
      ).data.id as number;
    const a = await mk("Small", 10, 17.9);
    const b = await mk("Medium", 18, 25);
    const touching = await mk("Touching", 25, 30);
    const open = await mk("Open", 30, null);
    const cull = (await api("/api/web_app/culls", { token, json: { cull: { reason: "Rot" } } })).data.id;
    const created = await api("/api/web_app/diameter_profiles", {
      token,
      json: { diameter_profile: { name: "Pine profile", default_cull_id: cull, wood_characteristic_ids: [a, b] } },
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      name: "Pine profile",
      default_cull_id: cull,
      wood_characteristic_ids: expect.arrayContaining([a, b]),
    });
    const before = await snapshotTables();
    const overlap = await api("/api/web_app/diameter_profiles", {
      token,
      json: { diameter_profile: { name: "Bad", wood_characteristic_ids: [b, touching] } },
    });
    expect(overlap.data.errors.wood_characteristic_ids).toEqual(["accounts:timber.overlap"]);
    const unbounded = await api("/api/web_app/diameter_profiles", {
      token,
      json: { diameter_profile: { name: "Bad", wood_characteristic_ids: [open] } },
    });
    expect(unbounded.data.errors.wood_characteristic_ids).toEqual(["accounts:timber.boundsRequired"]);
    expect(
      (
        await api("/api/web_app/diameter_profiles", {
          token,
          json: { diameter_profile: { name: "", wood_characteristic_ids: [] } },
        })
      ).status,
    ).toBe(422);
    expect(await snapshotTables()).toEqual(before);
    const id = created.data.id;
    expect(
      (
        await api(`/api/web_app/diameter_profiles/${id}`, {
          method: "PATCH",
          token,
          json: { diameter_profile: { wood_characteristic_ids: [a] } },
        })
      ).data.wood_characteristic_ids,
    ).toEqual([a]);
    expect((await api("/api/web_app/diameter_profiles", { token })).data).toHaveLength(1);
    const gated = await admin(["timber_management"]);
    expect((await api("/api/web_app/diameter_profiles", { token: gated.token })).status).toBe(403);
    await expectOutsiderGets404(({ token }) =>
      api(`/api/web_app/diameter_profiles/${id}`, {
        method: "PATCH",
        token,
        json: { diameter_profile: { name: "X" } },
      }),
    );
    await expectOutsiderGets404(({ token }) =>
      api(`/api/web_app/diameter_profiles/${id}`, { method: "DELETE", token }),
    );
    expect((await api(`/api/web_app/diameter_profiles/${id}`, { method: "DELETE", token })).status).toBe(204);
  });
});

describe("culls and lumber products", () => {
  it("culls: create, edit, archive; reason required; min <= max; outsiders 404", async () => {
    const { token, viewerToken } = await admin([]);
    const created = await api("/api/web_app/culls", {
      token,
      json: { cull: { reason: "Blue stain", min: 0, max: 10 } },
    });
    expect(created.status).toBe(201);
    const id = created.data.id;
    expect(
      (await api(`/api/web_app/culls/${id}`, { method: "PATCH", token, json: { cull: { reason: "Stain" } } })).data
        .reason,
    ).toBe("Stain");
    expect((await api("/api/web_app/culls", { token, json: { cull: { reason: "" } } })).status).toBe(422);
    expect((await api("/api/web_app/culls", { token, json: { cull: { reason: "X", min: 5, max: 1 } } })).status).toBe(
      422,
    );
    expect((await api("/api/web_app/culls", { token: viewerToken, json: { cull: { reason: "X" } } })).status).toBe(403);
    await expectOutsiderGets404(({ token }) =>
      api(`/api/web_app/culls/${id}`, { method: "PATCH", token, json: { cull: { reason: "X" } } }),
    );
    expect((await api(`/api/web_app/culls/${id}`, { method: "DELETE", token })).status).toBe(204);
    expect((await api("/api/web_app/culls", { token })).data.find((c: { id: number }) => c.id === id).archived).toBe(
      true,
    );
  });

  it("lumber products: sizes above 0 as numbers; edit; delete; outsiders 404", async () => {
    const { token } = await admin([]);
    const created = await api("/api/web_app/lumber_products", {
      token,
      json: { name: "Board 22x100", plank_length: 4200, plank_width: 100, plank_height: 22 },
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ plank_length: 4200, plank_width: 100, plank_height: 22 });
    const id = created.data.id;
    const zero = await api("/api/web_app/lumber_products", {
      token,
      json: { name: "Bad", plank_length: 0, plank_width: 100, plank_height: 22 },
    });
    expect(zero.data.errors.plank_length).toEqual(["accounts:timber.positive"]);
    expect((await api("/api/web_app/lumber_products", { token, json: { plank_length: 1 } })).status).toBe(422);
    expect(
      (await api(`/api/web_app/lumber_products/${id}`, { method: "PATCH", token, json: { name: "Board" } })).data.name,
    ).toBe("Board");
    await expectOutsiderGets404(({ token }) =>
      api(`/api/web_app/lumber_products/${id}`, { method: "PATCH", token, json: { name: "X" } }),
    );
    await expectOutsiderGets404(({ token }) => api(`/api/web_app/lumber_products/${id}`, { method: "DELETE", token }));
    expect((await api(`/api/web_app/lumber_products/${id}`, { method: "DELETE", token })).status).toBe(204);
    expect(await db().selectFrom("lumber_products").selectAll().execute()).toHaveLength(0);
  });
});
