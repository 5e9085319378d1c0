import { describe, expect, it } from "vitest";
import { apiToken, createOrganization, createUser } from "#tests/factories";
import { snapshotTables } from "#tests/helpers/db";
import { api } from "#tests/helpers/http";
import { expectOutsiderGets404 } from "#tests/helpers/tenancy";

async function admin(features = ["custom_fields"]) {
  const org = await createOrganization({ features });
  const user = await createUser(org.id, { role: "admin" });
  return { org, token: await apiToken(user.id) };
}

const field = {
  name: "Contract number",
  key: "contract_no",
  source_key: "measurement",
  data_type: "string",
  searchable: true,
  required: true,
};

describe("custom fields API", () => {
  it("creates, lists, edits and archives a field; values get ranks and can be archived", async () => {
    const { token } = await admin();
    const created = await api("/api/web_app/custom_fields", { token, json: { custom_field: field } });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ ...field, archived: false, values: [] });
    const id = created.data.id;
    const a = await api(`/api/web_app/custom_fields/${id}/values`, {
      token,
      json: { custom_field_value: { value: "K-2026-01" } },
    });
    const b = await api(`/api/web_app/custom_fields/${id}/values`, {
      token,
      json: { custom_field_value: { value: "K-2026-02" } },
    });
    expect([a.status, a.data.rank, b.data.rank]).toEqual([201, 0, 1]);
    const moved = await api(`/api/web_app/custom_fields/values/${b.data.id}`, {
      method: "PATCH",
      token,
      json: { custom_field_value: { rank: 0, archived: true } },
    });
    expect(moved.data).toMatchObject({ rank: 0, archived: true });
    const patched = await api(`/api/web_app/custom_fields/${id}`, {
      method: "PATCH",
      token,
      json: { custom_field: { name: "Contract", archived: true, required: false } },
    });
    expect(patched.data).toMatchObject({ name: "Contract", archived: true, required: false, searchable: true });
    const list = await api("/api/web_app/custom_fields", { token });
    expect(list.data).toHaveLength(1);
    expect(list.data[0].values.map((v: { value: string }) => v.value)).toEqual(["K-2026-01", "K-2026-02"]);
  });

  it("enforces the key rule, required fields, data types and unique keys with 422, creating nothing", async () => {
    const { token } = await admin();
    await api("/api/web_app/custom_fields", { token, json: { custom_field: field } });
    const before = await snapshotTables();
    const badKey = await api("/api/web_app/custom_fields", {
      token,
      json: { custom_field: { ...field, key: "Contract-No" } },
    });
    expect(badKey.data.errors["custom_field.key"]).toEqual(["accounts:customFields.keyRule"]);
    const missing = await api("/api/web_app/custom_fields", {
      token,
      json: { custom_field: { source_key: "storage" } },
    });
    expect(Object.keys(missing.data.errors).sort()).toEqual([
      "custom_field.data_type",
      "custom_field.key",
      "custom_field.name",
    ]);
    const badType = await api("/api/web_app/custom_fields", {
      token,
      json: { custom_field: { ...field, key: "x", data_type: "money" } },
    });
    expect(badType.status).toBe(422);
    const dup = await api("/api/web_app/custom_fields", { token, json: { custom_field: field } });
    expect(dup.data.errors["custom_field.key"]).toEqual(["accounts:customFields.keyTaken"]);
    const emptyValue = await api(
      `/api/web_app/custom_fields/${(await api("/api/web_app/custom_fields", { token })).data[0].id}/values`,
      { token, json: { custom_field_value: { value: " " } } },
    );
    expect(emptyValue.status).toBe(422);
    expect(await snapshotTables()).toEqual(before);
  });

  it("needs the custom_fields feature and an admin; other organisations' fields and values answer 404", async () => {
    const { org, token } = await admin();
    const created = await api("/api/web_app/custom_fields", { token, json: { custom_field: field } });
    const value = await api(`/api/web_app/custom_fields/${created.data.id}/values`, {
      token,
      json: { custom_field_value: { value: "A" } },
    });
    const noFeature = await admin([]);
    const gated = await api("/api/web_app/custom_fields", { token: noFeature.token, json: { custom_field: field } });
    expect(gated.status).toBe(403);
    expect(gated.data.error).toBe("feature_unavailable");
    const measurer = await apiToken((await createUser(org.id, { role: "measurer" })).id);
    expect(
      (await api("/api/web_app/custom_fields", { token: measurer, json: { custom_field: { ...field, key: "other" } } }))
        .status,
    ).toBe(403);
    expect((await api("/api/web_app/custom_fields", { token: measurer })).status).toBe(200);
    expect((await api("/api/web_app/custom_fields", { token: noFeature.token })).data).toEqual([]);
    await expectOutsiderGets404(({ token }) =>
      api(`/api/web_app/custom_fields/${created.data.id}`, {
        method: "PATCH",
        token,
        json: { custom_field: { name: "X" } },
      }),
    );
    await expectOutsiderGets404(({ token }) =>
      api(`/api/web_app/custom_fields/${created.data.id}/values`, {
        token,
        json: { custom_field_value: { value: "X" } },
      }),
    );
    await expectOutsiderGets404(({ token }) =>
      api(`/api/web_app/custom_fields/values/${value.data.id}`, {
        method: "PATCH",
        token,
        json: { custom_field_value: { value: "X" } },
      }),
    );
  });
});
