import { describe, expect, it } from "vitest";
import { InvalidInputError, MissingInputError } from "./errors";
import { LOG_FORMULAS, LOG_FORMULA_KEYS, logVolume, logVolumesInto } from "./log-volume";

const close = (v: number, expected: number, digits = 9) => expect(v).toBeCloseTo(expected, digits);

describe("LOG_FORMULAS metadata", () => {
  it("lists the 13 formulas with translation keys and English text", () => {
    expect(LOG_FORMULA_KEYS).toHaveLength(13);
    expect(LOG_FORMULAS.cylinder.nameKey).toBe("formulas.cylinder.name");
    expect(LOG_FORMULAS.gost_2708_75.descriptionKey).toBe("formulas.gost_2708_75.description");
    expect(LOG_FORMULAS.hoppus.unit).toBe("hoppus_m^3");
    expect(LOG_FORMULAS.doyle.unit).toBe("fbm");
    expect(LOG_FORMULAS.estonian_nilson.inputs).toContain("species");
    for (const k of LOG_FORMULA_KEYS) expect(LOG_FORMULAS[k].name.length).toBeGreaterThan(2);
  });
});

describe("solid-volume formulas (textbook mensuration, e.g. Husch et al., Forest Mensuration)", () => {
  const log = { topDiameterCm: 20, buttDiameterCm: 30, midDiameterCm: 25, lengthM: 4 };
  it("cylinder: pi/4 x 0.2^2 x 4 = 0.1256637 m^3", () => {
    close(logVolume("cylinder", log).value, 0.12566370614359174);
    expect(logVolume("cylinder", log).unit).toBe("m^3");
  });
  it("huber: pi/4 x 0.25^2 x 4 = 0.1963495", () => close(logVolume("huber", log).value, 0.19634954084936207));
  it("smalian: (A_top + A_butt) / 2 x L = 0.2042035", () =>
    close(logVolume("smalian", log).value, 0.20420352248333656));
  it("newton: (A_t + 4 A_m + A_b) / 6 x L = 0.1989675", () =>
    close(logVolume("newton", log).value, 0.19896753472735357));
  it("frustum of a cone: pi L (d1^2 + d1 d2 + d2^2) / 12 = 0.1989675", () =>
    close(logVolume("frustum_cone", log).value, (Math.PI * 4 * (0.04 + 0.06 + 0.09)) / 12));
  it("frustum of a neiloid: L/4 (A_t + cbrt(A_t^2 A_b) + cbrt(A_t A_b^2) + A_b)", () => {
    const at = (Math.PI / 4) * 0.04;
    const ab = (Math.PI / 4) * 0.09;
    close(logVolume("frustum_neiloid", log).value, at + Math.cbrt(at * at * ab) + Math.cbrt(at * ab * ab) + ab);
    close(logVolume("frustum_neiloid", log).value, 0.19725, 4);
  });
  it("hoppus: (pi d / 4)^2 L in hoppus m^3 (1 hoppus m^3 = 4/pi m^3)", () => {
    // 25 cm mid, 4 m: quarter girth 0.19635 m -> 0.154213 hoppus m^3 = pi/4 of Huber's 0.19635.
    const h = logVolume("hoppus", log);
    expect(h.unit).toBe("hoppus_m^3");
    close(h.value, 0.15421256876702122);
    close(h.value / logVolume("huber", log).value, Math.PI / 4);
  });
});

describe("validation", () => {
  it("names the missing input", () => {
    expect(() => logVolume("huber", { topDiameterCm: 20, lengthM: 4 })).toThrow(MissingInputError);
    try {
      logVolume("smalian", { topDiameterCm: 20, lengthM: 4 });
    } catch (e) {
      expect((e as MissingInputError).input).toBe("buttDiameterCm");
      expect((e as MissingInputError).formula).toBe("smalian");
    }
    expect(() => logVolume("estonian_nilson", { topDiameterCm: 20, lengthM: 4 })).toThrow(/species/);
  });
  it("rejects negative, NaN and infinite input", () => {
    expect(() => logVolume("cylinder", { topDiameterCm: -1, lengthM: 4 })).toThrow(InvalidInputError);
    expect(() => logVolume("cylinder", { topDiameterCm: Number.NaN, lengthM: 4 })).toThrow(InvalidInputError);
    expect(() => logVolume("cylinder", { topDiameterCm: 20, lengthM: Infinity })).toThrow(/lengthM/);
    expect(() => logVolume("newton", { topDiameterCm: 20, lengthM: 4, midDiameterCm: -3, buttDiameterCm: 30 })).toThrow(
      /midDiameterCm/,
    );
  });
  it("rejects unknown formulas and species", () => {
    expect(() => logVolume("bogus" as never, { topDiameterCm: 20, lengthM: 4 })).toThrow(InvalidInputError);
    expect(() => logVolume("estonian_nilson", { topDiameterCm: 20, lengthM: 4, species: "oak" as never })).toThrow(
      /species/,
    );
  });
  it("zero is a valid input", () => {
    expect(logVolume("cylinder", { topDiameterCm: 0, lengthM: 4 }).value).toBe(0);
  });
});

describe("logVolumesInto (batch)", () => {
  it("matches logVolume for cylinder and other formulas", () => {
    const d = new Float64Array([10, 20.32, 35.5]);
    const out = new Float64Array(3);
    logVolumesInto("cylinder", d, 3, out);
    for (let i = 0; i < 3; i++) close(out[i], logVolume("cylinder", { topDiameterCm: d[i], lengthM: 3 }).value, 12);
    logVolumesInto("jas", d, new Float64Array([4, 4, 6.5]), out);
    expect(Array.from(out)).toEqual([0.04, 0.16, logVolume("jas", { topDiameterCm: 35.5, lengthM: 6.5 }).value]);
  });
  it("rejects a short output buffer", () => {
    expect(() => logVolumesInto("cylinder", new Float64Array(3), 3, new Float64Array(2))).toThrow(InvalidInputError);
  });
});
