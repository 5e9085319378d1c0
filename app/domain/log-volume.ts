/**
 * Log volume by formula. Inputs in cm and m; each formula documents its own conventions.
 * The solid-volume formulas are the textbook forest mensuration ones (Husch, Beers & Kershaw,
 * Forest Mensuration; Avery & Burkhart, Forest Measurements): areas from diameters, length in m.
 */
import {
  doyleBoardFeet,
  internationalQuarterInch,
  scalingDiameterIn,
  scalingLengthFt,
  scribnerBoardFeet,
  type InchRounding,
} from "./board-foot-rules";
import { InvalidInputError, MissingInputError } from "./errors";
import { nilsonVolumeM3, type NilsonSpecies } from "./estonian-nilson";
import { gostVolume } from "./gost-2708-75-table";
import { jasVolumeM3, type JasRounding } from "./jas";

export type Species = NilsonSpecies;
export type LogVolumeUnit = "m^3" | "fbm" | "hoppus_m^3";

export interface LogInput {
  /** Small-end diameter under bark, cm. */
  topDiameterCm: number;
  lengthM: number;
  buttDiameterCm?: number;
  midDiameterCm?: number;
  /** Long axis of the small end, cm; only JAS uses it (oval-end adjustment). */
  topLongAxisCm?: number;
  species?: Species;
}

export interface LogVolume {
  value: number;
  unit: LogVolumeUnit;
  /** Set when the value is an approximation rather than a standard's table value (GOST gaps). */
  approximate?: boolean;
}

export interface LogVolumeOptions {
  /** Board-foot rules: how cm become whole inches. Default 'floor'. */
  inchRounding?: InchRounding;
  /** JAS per-log rounding. Default 'jas'. */
  jasRounding?: JasRounding;
}

type InputName = "topDiameterCm" | "lengthM" | "buttDiameterCm" | "midDiameterCm" | "species";

export interface FormulaMeta {
  key: string;
  inputs: readonly InputName[];
  unit: LogVolumeUnit;
  kind: "solid" | "scale" | "board_foot" | "hoppus";
  nameKey: string;
  descriptionKey: string;
  /** English source text for the locale files. */
  name: string;
  description: string;
}

const meta = <K extends string>(
  key: K,
  inputs: readonly InputName[],
  unit: LogVolumeUnit,
  kind: FormulaMeta["kind"],
  name: string,
  description: string,
): FormulaMeta & { key: K } => ({
  key,
  inputs,
  unit,
  kind,
  nameKey: `formulas.${key}.name`,
  descriptionKey: `formulas.${key}.description`,
  name,
  description,
});

const TOP = ["topDiameterCm", "lengthM"] as const;
const ENDS = ["topDiameterCm", "buttDiameterCm", "lengthM"] as const;

export const LOG_FORMULAS = {
  cylinder: meta(
    "cylinder",
    TOP,
    "m^3",
    "solid",
    "Cylinder",
    "Cylinder volume from the top (small-end) diameter and the log length.",
  ),
  huber: meta(
    "huber",
    ["midDiameterCm", "lengthM"],
    "m^3",
    "solid",
    "Huber",
    "Mid-diameter cross-section area times length.",
  ),
  smalian: meta("smalian", ENDS, "m^3", "solid", "Smalian", "Mean of the two end cross-section areas times length."),
  newton: meta(
    "newton",
    ["topDiameterCm", "midDiameterCm", "buttDiameterCm", "lengthM"],
    "m^3",
    "solid",
    "Newton",
    "End and mid cross-section areas weighted 1:4:1, times length.",
  ),
  frustum_cone: meta(
    "frustum_cone",
    ENDS,
    "m^3",
    "solid",
    "Frustum of a cone",
    "Volume of a truncated cone between the two end diameters.",
  ),
  frustum_neiloid: meta(
    "frustum_neiloid",
    ENDS,
    "m^3",
    "solid",
    "Frustum of a neiloid",
    "Volume of a truncated neiloid between the two end diameters, for butt logs with flare.",
  ),
  hoppus: meta(
    "hoppus",
    ["midDiameterCm", "lengthM"],
    "hoppus_m^3",
    "hoppus",
    "Hoppus",
    "Quarter-girth measure from the mid diameter, in hoppus cubic metres.",
  ),
  jas: meta(
    "jas",
    TOP,
    "m^3",
    "scale",
    "JAS",
    "Japanese Agricultural Standard log scale: top diameter to whole or even cm, length correction from 6 m.",
  ),
  gost_2708_75: meta(
    "gost_2708_75",
    TOP,
    "m^3",
    "scale",
    "GOST 2708-75",
    "Russian round timber volume table by top diameter class and length.",
  ),
  estonian_nilson: meta(
    "estonian_nilson",
    ["topDiameterCm", "lengthM", "species"],
    "m^3",
    "scale",
    "Nilson (Estonia)",
    "Estonian top-diameter formula with species coefficients.",
  ),
  doyle: meta(
    "doyle",
    TOP,
    "fbm",
    "board_foot",
    "Doyle",
    "Doyle log rule in board feet: (D - 4)² × L / 16, inches and feet.",
  ),
  scribner_decimal_c: meta(
    "scribner_decimal_c",
    TOP,
    "fbm",
    "board_foot",
    "Scribner Decimal C",
    "Official Scribner Decimal C table in board feet, rounded to tens.",
  ),
  international_quarter_inch: meta(
    "international_quarter_inch",
    TOP,
    "fbm",
    "board_foot",
    "International ¼-inch",
    "International ¼-inch log rule in board feet, 4-ft sections with ½-inch taper.",
  ),
} as const;

export type LogFormula = keyof typeof LOG_FORMULAS;
export const LOG_FORMULA_KEYS = Object.keys(LOG_FORMULAS) as LogFormula[];

export function isLogFormula(value: unknown): value is LogFormula {
  return typeof value === "string" && Object.prototype.hasOwnProperty.call(LOG_FORMULAS, value);
}

const QUARTER_PI = Math.PI / 4;
/** cm^2 -> m^2 times pi/4 */
const AREA_K = QUARTER_PI * 1e-4;

function need(log: LogInput, input: "buttDiameterCm" | "midDiameterCm", formula: string): number {
  const v = log[input];
  if (v === undefined || v === null) throw new MissingInputError(input, formula);
  return checkNumber(input, v);
}

function checkNumber(input: string, v: unknown): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) throw new InvalidInputError(input, v);
  return v;
}

const SPECIES = new Set<string>(["pine", "spruce", "birch", "broadleaf", "conifer"]);

export function logVolume(formula: LogFormula, log: LogInput, options: LogVolumeOptions = {}): LogVolume {
  const m = LOG_FORMULAS[formula];
  if (!m) throw new InvalidInputError("formula", formula, "is not a known formula");
  if (log.topDiameterCm === undefined && m.inputs.includes("topDiameterCm")) {
    throw new MissingInputError("topDiameterCm", formula);
  }
  if (log.lengthM === undefined) throw new MissingInputError("lengthM", formula);
  const top = m.inputs.includes("topDiameterCm") ? checkNumber("topDiameterCm", log.topDiameterCm) : 0;
  const length = checkNumber("lengthM", log.lengthM);

  switch (formula) {
    case "cylinder":
      return { value: AREA_K * top * top * length, unit: "m^3" };
    case "huber": {
      const mid = need(log, "midDiameterCm", formula);
      return { value: AREA_K * mid * mid * length, unit: "m^3" };
    }
    case "smalian": {
      const butt = need(log, "buttDiameterCm", formula);
      return { value: (AREA_K * (top * top + butt * butt) * length) / 2, unit: "m^3" };
    }
    case "newton": {
      const mid = need(log, "midDiameterCm", formula);
      const butt = need(log, "buttDiameterCm", formula);
      return { value: (AREA_K * (top * top + 4 * mid * mid + butt * butt) * length) / 6, unit: "m^3" };
    }
    case "frustum_cone": {
      const butt = need(log, "buttDiameterCm", formula);
      return { value: (AREA_K * (top * top + top * butt + butt * butt) * length) / 3, unit: "m^3" };
    }
    case "frustum_neiloid": {
      const butt = need(log, "buttDiameterCm", formula);
      const at = AREA_K * top * top;
      const ab = AREA_K * butt * butt;
      const v = (length / 4) * (at + Math.cbrt(at * at * ab) + Math.cbrt(at * ab * ab) + ab);
      return { value: v, unit: "m^3" };
    }
    case "hoppus": {
      // (girth / 4)^2 x L = (pi d / 4)^2 x L, d in m.
      const mid = need(log, "midDiameterCm", formula) / 100;
      const quarterGirth = (Math.PI * mid) / 4;
      return { value: quarterGirth * quarterGirth * length, unit: "hoppus_m^3" };
    }
    case "jas": {
      const longAxis = log.topLongAxisCm === undefined ? undefined : checkNumber("topLongAxisCm", log.topLongAxisCm);
      return { value: jasVolumeM3(top, length, longAxis, options.jasRounding), unit: "m^3" };
    }
    case "gost_2708_75": {
      const g = gostVolume(top, length);
      return g.approximate ? { value: g.value, unit: "m^3", approximate: true } : { value: g.value, unit: "m^3" };
    }
    case "estonian_nilson": {
      if (log.species === undefined) throw new MissingInputError("species", formula);
      if (!SPECIES.has(log.species)) throw new InvalidInputError("species", log.species, "is not a known species");
      return { value: nilsonVolumeM3(top, length, log.species), unit: "m^3" };
    }
    case "doyle":
      return {
        value: doyleBoardFeet(scalingDiameterIn(top, options.inchRounding), scalingLengthFt(length)),
        unit: "fbm",
      };
    case "scribner_decimal_c":
      return {
        value: scribnerBoardFeet(scalingDiameterIn(top, options.inchRounding), scalingLengthFt(length)),
        unit: "fbm",
      };
    case "international_quarter_inch":
      return {
        value: internationalQuarterInch(scalingDiameterIn(top, options.inchRounding), scalingLengthFt(length)),
        unit: "fbm",
      };
    default: {
      const never: never = formula;
      throw new InvalidInputError("formula", never, "is not a known formula");
    }
  }
}

/** Formulas that need only the top diameter and length (plus species for Nilson). */
export const TOP_DIAMETER_FORMULAS = LOG_FORMULA_KEYS.filter((k) =>
  LOG_FORMULAS[k].inputs.every((i) => i === "topDiameterCm" || i === "lengthM" || i === "species"),
);

export interface BatchOptions extends LogVolumeOptions {
  species?: Species;
  midDiametersCm?: Float64Array;
  buttDiametersCm?: Float64Array;
}

/**
 * Fills `out` with the volume of each log (native unit of the formula), allocation-free for the
 * closed-form formulas. `lengthM` is one length for all logs (the usual pile) or one per log.
 * Inputs are trusted here (validated upstream): this is the hot path for large piles.
 */
export function logVolumesInto(
  formula: LogFormula,
  topDiametersCm: Float64Array,
  lengthM: number | Float64Array,
  out: Float64Array,
  options: BatchOptions = {},
): Float64Array {
  const n = topDiametersCm.length;
  if (out.length < n) throw new InvalidInputError("out", out.length, "is shorter than the input");
  const single = typeof lengthM === "number";
  if (formula === "cylinder") {
    if (single) {
      const k = AREA_K * lengthM;
      for (let i = 0; i < n; i++) {
        const d = topDiametersCm[i];
        out[i] = k * d * d;
      }
    } else {
      for (let i = 0; i < n; i++) {
        const d = topDiametersCm[i];
        out[i] = AREA_K * d * d * lengthM[i];
      }
    }
    return out;
  }
  if (formula === "jas") {
    const rounding = options.jasRounding ?? "jas";
    for (let i = 0; i < n; i++) {
      out[i] = jasVolumeM3(topDiametersCm[i], single ? lengthM : lengthM[i], undefined, rounding);
    }
    return out;
  }
  if (formula === "estonian_nilson" && options.species && SPECIES.has(options.species)) {
    for (let i = 0; i < n; i++) {
      out[i] = nilsonVolumeM3(topDiametersCm[i], single ? lengthM : lengthM[i], options.species);
    }
    return out;
  }
  if (formula === "doyle" || formula === "scribner_decimal_c" || formula === "international_quarter_inch") {
    const rule =
      formula === "doyle"
        ? doyleBoardFeet
        : formula === "scribner_decimal_c"
          ? scribnerBoardFeet
          : internationalQuarterInch;
    for (let i = 0; i < n; i++) {
      const ft = scalingLengthFt(single ? lengthM : lengthM[i]);
      out[i] = rule(scalingDiameterIn(topDiametersCm[i], options.inchRounding), ft);
    }
    return out;
  }
  const log: LogInput = { topDiameterCm: 0, lengthM: 0, species: options.species };
  for (let i = 0; i < n; i++) {
    log.topDiameterCm = topDiametersCm[i];
    log.lengthM = single ? lengthM : lengthM[i];
    if (options.midDiametersCm) log.midDiameterCm = options.midDiametersCm[i];
    if (options.buttDiametersCm) log.buttDiameterCm = options.buttDiametersCm[i];
    out[i] = logVolume(formula, log, options).value;
  }
  return out;
}
