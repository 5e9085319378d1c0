import { describe, expect, it } from "vitest";
import {
  createDevice,
  createMeasuredStack,
  createOrganization,
  createStorage,
  createUser,
  givePlan,
  webCookie,
} from "#tests/factories";
import { api } from "#tests/helpers/http";
import { db } from "~/utils/db.server";

// What an Estonian or Japanese user reads on the timber screens: built-in species and qualities
// in their language, numbers and dates in one format, plurals that agree with their count.

async function setup(locale: string, role: "admin" | "viewer" = "admin", photo = false) {
  const org = await createOrganization({ name: "Keele Org" });
  await givePlan(org.id);
  const user = await createUser(org.id, { role, locale });
  await db().updateTable("users").set({ time_zone: "Europe/Tallinn" }).where("id", "=", user.id).execute();
  const storage = await createStorage(org.id, { name: "Metsa ladu" });
  // Spruce (built-in 2), quality Pulpwood (built-in 4).
  const m = await createMeasuredStack(org.id, storage.id, {
    photo,
    takenAt: new Date("2026-03-31T22:30:00Z"),
  });
  await db().updateTable("measurements").set({ wood_quality_id: 4 }).where("id", "=", m.id).execute();
  return { org, storage, m, cookie: await webCookie(user.id) };
}

const html = async (path: string, cookie: string) => {
  const res = await api(path, { cookie, headers: { Accept: "text/html" } });
  expect(res.status).toBe(200);
  return String(res.data);
};

/** The selected option of a select named `name`. */
const selectedOption = (page: string, name: string) => {
  const select = new RegExp(`<select[^>]*name="${name}"[^>]*>([\\s\\S]*?)</select>`).exec(page)?.[1] ?? "";
  return /<option[^>]*selected[^>]*>([^<]*)</.exec(select)?.[1];
};

describe("the timber screens in the user's language", () => {
  it("shows built-in species and qualities translated on the Estonian detail page and its filters", async () => {
    const a = await setup("et");
    const page = await html(`/measurements/timber/${a.m.id}`, a.cookie);
    expect(selectedOption(page, "wood_type_id")).toBe("Kuusk");
    expect(selectedOption(page, "wood_quality_id")).toBe("Paberipuu");
    expect(page).not.toMatch(/>Spruce</);
    expect(page).not.toMatch(/>Pulpwood</);
    const dashboard = await html(`/measurements/timber`, a.cookie);
    expect(dashboard).toContain(">Kuusk<");
    expect(dashboard).toContain(">Küttepuu<");
    expect(dashboard).not.toMatch(/>Pine</);
  });

  it("formats the detail page's numbers and dates one way: Estonian decimals, dd.MM.yyyy on the user's clock", async () => {
    const a = await setup("et");
    const page = await html(`/measurements/timber/${a.m.id}`, a.cookie);
    // 22:30 UTC on 31 March is 01:30 on 1 April in Tallinn.
    expect(page).toContain("01.04.2026 01:30");
    const average = /data-testid="detail-average-diameter"[^>]*>([^<]*)</.exec(page)?.[1];
    expect(average).toMatch(/^\d+,\d cm$/);
    const volume = /data-testid="detail-volume"[^>]*>([^<]*)</.exec(page)?.[1];
    expect(volume).toMatch(/^\d+,\d{2} m³$/);
  });

  it("takes and shows the dashboard's filter days as dd.MM.yyyy, not in the browser's date format", async () => {
    const a = await setup("ja");
    const page = await html(`/measurements/timber?taken_at_start=01.03.2026&taken_at_end=2026-04-30`, a.cookie);
    expect(page).toMatch(
      /name="taken_at_start"[^>]*value="01\.03\.2026"|value="01\.03\.2026"[^>]*name="taken_at_start"/,
    );
    expect(page).toMatch(/name="taken_at_end"[^>]*value="30\.04\.2026"|value="30\.04\.2026"[^>]*name="taken_at_end"/);
    expect(page).not.toMatch(/type="date"[^>]*name="taken_at_start"/);
    // The stack taken 31 March (UTC) lies inside the range: its storage is listed with logs.
    expect(page).toMatch(new RegExp(`data-testid="storage-${a.storage.id}-logs"[^>]*>[1-9]`));
  });

  it("filters by several species with plain checkboxes, as a form without JavaScript submits them", async () => {
    const a = await setup("en");
    const page = await html(
      `/measurements/timber?taken_at_start=01.01.2026&taken_at_end=31.12.2026&wood_type_ids=2&wood_type_ids=9`,
      a.cookie,
    );
    const box = (id: number) =>
      new RegExp(`<input[^>]*name="wood_type_ids"[^>]*value="${id}"[^>]*>`).exec(page)?.[0] ?? "";
    expect(box(2)).toContain("checked");
    expect(box(9)).toContain("checked");
    expect(box(1)).not.toContain("checked");
    expect(page).not.toMatch(/<select[^>]*multiple/);
    // Spruce (2) is the stack's species: its storage keeps its logs; Pine (1) alone leaves none.
    expect(page).toMatch(new RegExp(`data-testid="storage-${a.storage.id}-logs"[^>]*>[1-9]`));
    const pine = await html(
      `/measurements/timber?taken_at_start=01.01.2026&taken_at_end=31.12.2026&wood_type_ids=1`,
      a.cookie,
    );
    expect(pine).toMatch(new RegExp(`data-testid="storage-${a.storage.id}-logs"[^>]*>0<`));
  });

  it("agrees the dashboard summary with its counts (no '1 storages')", async () => {
    const en = await setup("en");
    const summary = (page: string) =>
      /data-testid="dashboard-summary"[^>]*>([^<]*)</.exec(page)?.[1]?.replace(/&nbsp;|\u00a0/g, " ");
    expect(summary(await html(`/measurements/timber`, en.cookie))).toMatch(/^1 storage · \d+ logs · /);
    const ru = await setup("ru");
    await createStorage(ru.org.id, { name: "Второй" });
    // Two storages in Russian: "2 склада".
    expect(summary(await html(`/measurements/timber`, ru.cookie))).toMatch(/^2 склада · \d+ (бревна|брёвен) · /);
  });

  it("names built-in species in the device app's language (Accept-Language), English without it", async () => {
    const a = await setup("en");
    const device = await createDevice(a.org.id);
    const names = async (headers: Record<string, string>) =>
      (await api("/api/device/lookups", { token: device.token, headers })).data.wood_types.map(
        (w: { name: string }) => w.name,
      );
    expect(await names({ "Accept-Language": "et" })).toContain("Kuusk");
    expect(await names({})).toContain("Spruce");
  });

  it("offers a viewer 'View on photo', not the editor's call to action", async () => {
    const a = await setup("en", "viewer", true);
    const page = await html(`/measurements/timber/${a.m.id}`, a.cookie);
    const link = /<a[^>]*data-testid="open-editor"[^>]*>([^<]*)</.exec(page);
    expect(link?.[1]).toBe("View on photo");
    expect(link?.[0]).not.toContain("btn-primary");
  });
});
