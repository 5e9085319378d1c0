import { formatVolume, type AnyVolumeUnit } from "~/domain";

/**
 * A volume on a public page or picture, with its unit: 3 decimals (to the litre), board feet to 1
 * (docs/decisions/013-public-links.md). The recipient has no precision setting of their own.
 */
export function publicVolume(value: number, unit: AnyVolumeUnit, locale: string) {
  return formatVolume(value, { precision: unit === "fbm" ? 1 : 3, unit, locale });
}

/** A volume in a public table, whose header names the unit. */
export function publicRowVolume(value: number, unit: AnyVolumeUnit, locale: string) {
  return formatVolume(value, { precision: unit === "fbm" ? 1 : 3, locale });
}
