import { readFileSync } from "node:fs";
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { detailText, encodeDetail } from "./export-detail";

const load = (lng: string) =>
  JSON.parse(readFileSync(new URL(`../../locales/${lng}/exports.json`, import.meta.url), "utf8"));

async function fixedT(lng: string) {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng,
    fallbackLng: "en",
    ns: ["exports"],
    resources: { en: { exports: load("en") }, et: { exports: load("et") } },
    interpolation: { escapeValue: false },
  });
  return i18n.getFixedT(lng);
}

describe("an export's status detail", () => {
  it("is stored as keys with parameters and worded in the reader's language", async () => {
    const stored = encodeDetail([
      { key: "exports:detail.missing", params: { ids: "#12, #13" } },
      { key: "exports:detail.noPhoto", params: { ids: "#14" } },
    ]);
    expect(stored).not.toContain("Left out");
    expect(detailText(await fixedT("en"), stored)).toBe(
      "Left out (deleted or not found): #12, #13. Without photo: #14.",
    );
    const et = detailText(await fixedT("et"), stored)!;
    expect(et).toContain("#12, #13");
    expect(et).not.toContain("Left out");
  });

  it("shows a row written before, as plain text, unchanged; nothing when empty", async () => {
    const t = await fixedT("et");
    expect(detailText(t, "Left out (deleted or not found): #9.")).toBe("Left out (deleted or not found): #9.");
    expect(detailText(t, null)).toBeNull();
    expect(encodeDetail([])).toBeNull();
  });
});
