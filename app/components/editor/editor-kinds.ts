import {
  containerPatch,
  lumberPatch,
  removeLogs,
  removePlanks,
  timberPatch,
  type EditorDoc,
  type ContainerEditorPatch,
  type EditorMode,
  type LumberEditorPatch,
  type TimberEditorPatch,
} from "./editor-model";

// What the editor edits on a measurement's photo, by shape: log ends as circles (timber, and
// container measurements, whose logs carry no cull or assortment and whose volume is JAS), plank
// ends as rectangles (lumber); truck loads come with the trucks issue as a further entry. A measurement kind's editor route picks
// one, may narrow its modes (a kind without contours has no area or load lines), and gives its
// PATCH URL; everything else (drawing, undo, the diff Save sends) is the editor's.

export type EditorShape = "logs" | "planks";

export interface EditorKindSpec {
  /** What is drawn and picked on the photo. */
  shape: EditorShape;
  /** How the live numbers are computed: the timber formulas, JAS (containers) or plank volumes. */
  preview: "timber" | "jas" | "lumber";
  /** Whether a selected log shows its cull and assortment. */
  logAttributes: boolean;
  /** The toolbar's modes, in toolbar order. */
  modes: readonly EditorMode[];
  /** The mode an editable document opens in. */
  startMode: EditorMode;
  /** What Save sends: the difference between the loaded document and the present one. */
  patch(original: EditorDoc, present: EditorDoc): TimberEditorPatch | LumberEditorPatch | ContainerEditorPatch;
  /** The Delete key on a selection. */
  remove(doc: EditorDoc, keys: ReadonlySet<string>): EditorDoc;
  /** The help line of a mode (a key of the timber namespace). */
  helpKey(mode: EditorMode): string;
}

export const EDITOR_KINDS = {
  logs: {
    shape: "logs",
    preview: "timber",
    logAttributes: true,
    modes: ["VIEW", "EDIT", "REFERENCE", "LOGS", "LOAD_LINES", "MEASUREMENT_AREA"],
    startMode: "EDIT",
    patch: timberPatch,
    remove: removeLogs,
    helpKey: (mode) => `editor.help.${mode}`,
  },
  planks: {
    shape: "planks",
    preview: "lumber",
    logAttributes: false,
    modes: ["VIEW", "EDIT", "PLANKS"],
    startMode: "PLANKS",
    patch: lumberPatch,
    remove: removePlanks,
    helpKey: (mode) => (mode === "EDIT" ? "editor.help.EDIT_lumber" : `editor.help.${mode}`),
  },
  // A container measurement (decision 022): no contours, no per-log cull or assortment; Save
  // sends what PATCH /containers/measurements/{id} takes.
  containerLogs: {
    shape: "logs",
    preview: "jas",
    logAttributes: false,
    modes: ["VIEW", "EDIT", "REFERENCE", "LOGS"],
    startMode: "EDIT",
    patch: containerPatch,
    remove: removeLogs,
    helpKey: (mode) => `editor.help.${mode}`,
  },
} satisfies Record<string, EditorKindSpec>;

export type EditorKind = keyof typeof EDITOR_KINDS;
