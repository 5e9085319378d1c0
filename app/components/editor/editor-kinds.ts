import {
  lumberPatch,
  removeLogs,
  removePlanks,
  timberPatch,
  type EditorDoc,
  type EditorMode,
  type LumberEditorPatch,
  type TimberEditorPatch,
} from "./editor-model";

// What the editor edits on a measurement's photo, by shape: log ends as circles (timber, and
// next container and truck-diameter measurements), plank ends as rectangles (lumber); truck
// loads come with the trucks issue as a third entry. A measurement kind's editor route picks
// one, may narrow its modes (a kind without contours has no area or load lines), and gives its
// PATCH URL; everything else (drawing, undo, the diff Save sends) is the editor's.

export interface EditorKindSpec {
  /** The toolbar's modes, in toolbar order. */
  modes: readonly EditorMode[];
  /** The mode an editable document opens in. */
  startMode: EditorMode;
  /** What Save sends: the difference between the loaded document and the present one. */
  patch(original: EditorDoc, present: EditorDoc): TimberEditorPatch | LumberEditorPatch;
  /** The Delete key on a selection. */
  remove(doc: EditorDoc, keys: ReadonlySet<string>): EditorDoc;
  /** The help line of a mode (a key of the timber namespace). */
  helpKey(mode: EditorMode): string;
}

export const EDITOR_KINDS = {
  logs: {
    modes: ["VIEW", "EDIT", "REFERENCE", "LOGS", "LOAD_LINES", "MEASUREMENT_AREA"],
    startMode: "EDIT",
    patch: timberPatch,
    remove: removeLogs,
    helpKey: (mode) => `editor.help.${mode}`,
  },
  planks: {
    modes: ["VIEW", "EDIT", "PLANKS"],
    startMode: "PLANKS",
    patch: lumberPatch,
    remove: removePlanks,
    helpKey: (mode) => (mode === "EDIT" ? "editor.help.EDIT_lumber" : `editor.help.${mode}`),
  },
} satisfies Record<string, EditorKindSpec>;

export type EditorKind = keyof typeof EDITOR_KINDS;
