// The /timber tabs (shared by server and browser).
export const TIMBER_KINDS = [
  "species",
  "qualities",
  "assortments",
  "diameter_profiles",
  "culls",
  "lumber_products",
] as const;
export type TimberKind = (typeof TIMBER_KINDS)[number];
