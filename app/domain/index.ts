/** Public API of the measurement math (pure TypeScript, no I/O). */
export * from "./errors";
export * from "./units";
export * from "./format";
export { roundHalfUp, roundSignificant, floorEps } from "./numeric";
export * from "./log-volume";
export * from "./board-foot-rules";
export * from "./jas";
export * from "./gost-2708-75-table";
export * from "./estonian-nilson";
export * from "./reference-scale";
export * from "./contour";
export * from "./truck";
export * from "./container";
export * from "./lumber";
export * from "./diameter-classes";
export * from "./summary";
export * from "./mixed-stack";
export * from "./timber-measurement";
