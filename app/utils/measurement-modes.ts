/** The sidebar's measurement modes, also stored as the user's recent_measurement_mode. */
export const MEASUREMENT_MODES = ["timber", "container", "truck", "lumber", "cmpc"] as const;
export type MeasurementModeKey = (typeof MEASUREMENT_MODES)[number];
