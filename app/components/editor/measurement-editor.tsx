import { useBeforeUnload, useBlocker } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { showToast } from "~/components/ui/toaster";
import {
  convertLength,
  convertVolume,
  formatVolume,
  volumeUnitLabel,
  type LumberDimensionsMm,
  type Species,
  type VolumeUnit,
} from "~/domain";
import { intlLocale } from "~/i18n";
import { formulaName } from "~/utils/lookup-name";
import { useFormat } from "~/utils/use-format";
import { EDITOR_KINDS, type EditorKind, type EditorKindSpec } from "./editor-kinds";
import {
  changeLogs,
  commit,
  docFromLoaded,
  historyOf,
  isEmptyPatch,
  MODE_KEYS,
  redo,
  setFormula,
  setReference,
  undo,
  type EditorDoc,
  type EditorMode,
  type History,
} from "./editor-model";
import { previewContainer, previewLumber, previewTimber } from "./editor-preview";
import { PaperStage } from "./paper-stage.client";

// The measurement editor: toolbar, the Paper.js stage on the photo, and the live numbers.
// Only rendered after hydration (the route shows the static photo before that, and without
// JavaScript says the editor needs it).

export interface EditorLoaded {
  logs?: Parameters<typeof docFromLoaded>[0]["logs"];
  references?: Parameters<typeof docFromLoaded>[0]["references"];
  loadLines?: Parameters<typeof docFromLoaded>[0]["loadLines"];
  area?: Parameters<typeof docFromLoaded>[0]["area"];
  planks?: Parameters<typeof docFromLoaded>[0]["planks"];
  formula?: string;
}

export interface MeasurementEditorProps {
  /** What is edited on the photo: timber logs, container logs or plank ends, see editor-kinds.ts. */
  kind: EditorKind;
  /** A narrower toolbar than the kind's (e.g. a kind without contours); in the kind's order. */
  modes?: readonly EditorMode[];
  photo: { src: string | null; width: number; height: number };
  loaded: EditorLoaded;
  /** Changes whenever the server's copy changes (after a save): the editor reloads its document. */
  version: string;
  server: { volumeM3: number; count: number };
  /** What the logs preview computes with (kind "logs"). */
  logsPreview?: { logLengthM: number | null; species?: Species; coefficient: number | null };
  /** What the planks preview computes with (kind "planks"). */
  planksPreview?: { dims: LumberDimensionsMm | null };
  formulas: string[];
  assortments: Array<{ id: number; name: string }>;
  culls: Array<{ id: number; name: string }>;
  unit: VolumeUnit;
  precision: number;
  locale: string;
  readOnly: boolean;
  /** A container measurement whose locked_at is set: everything can be looked at, nothing saved. */
  saveLocked?: boolean;
  saveUrl: string;
  onSaved(): void;
}

type Action =
  | { type: "edit"; fn: (doc: EditorDoc) => EditorDoc; tag?: string }
  | { type: "undo" }
  | { type: "redo" }
  | { type: "reset"; doc: EditorDoc };
type State = History & { tag?: string };

function reducer(state: State, action: Action): State {
  switch (action.type) {
    case "edit": {
      const next = action.fn(state.present);
      if (next === state.present) return state;
      // Typing a reference size is one change, not one per keystroke.
      if (action.tag && action.tag === state.tag) return { ...state, present: next, future: [] };
      return { ...commit(state, next), tag: action.tag };
    }
    case "undo":
      return { ...undo(state), tag: undefined };
    case "redo":
      return { ...redo(state), tag: undefined };
    case "reset":
      return historyOf(action.doc);
  }
}

export function MeasurementEditor(props: MeasurementEditorProps) {
  const { t } = useTranslation(["timber", "lookups"]);
  const format = useFormat();
  const { kind, readOnly } = props;
  const spec: EditorKindSpec = EDITOR_KINDS[kind];
  const shape = spec.shape;
  const initial = useMemo(() => docFromLoaded(props.loaded), [props.version]); // eslint-disable-line react-hooks/exhaustive-deps -- a new server version resets the document
  const [original, setOriginal] = useState(initial);
  const [history, dispatch] = useReducer(reducer, initial, historyOf);
  const [mode, setMode] = useState<EditorMode>(readOnly ? "VIEW" : spec.startMode);
  const [selection, setSelection] = useState<Set<string>>(() => new Set());
  const [referenceIndex, setReferenceIndex] = useState(0);
  const [refUnit, setRefUnit] = useState<"cm" | "ft">(
    props.unit === "m^3" || props.unit === "stere" || props.unit === "pmt" ? "cm" : "ft",
  );
  const [saving, setSaving] = useState(false);
  const [zoom, setZoom] = useState(1);
  const doc = history.present;

  // A save's answer arrives through the loader: start again from the server's document.
  useEffect(() => {
    setOriginal(initial);
    dispatch({ type: "reset", doc: initial });
    setSelection(new Set());
    setSaving(false);
  }, [initial]);

  const patch = useMemo(() => spec.patch(original, doc), [spec, original, doc]);
  const dirty = !isEmptyPatch(patch);

  const logLengthM = props.logsPreview?.logLengthM ?? null;
  const species = props.logsPreview?.species;
  const coefficient = props.logsPreview?.coefficient ?? null;
  const timberPreview = useMemo(
    () =>
      spec.preview === "jas"
        ? previewContainer(doc, { logLengthM })
        : spec.preview === "timber"
          ? previewTimber(doc, { logLengthM, species, coefficient })
          : null,
    [spec, doc, logLengthM, species, coefficient],
  );
  const dims = props.planksPreview?.dims ?? null;
  const lumberPreview = useMemo(() => (shape === "planks" ? previewLumber(doc, dims) : null), [shape, doc, dims]);
  const diameters = timberPreview?.diameters ?? EMPTY_DIAMETERS;

  // ---- the stage ----
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const logsCanvasRef = useRef<HTMLCanvasElement>(null);
  const photoRef = useRef<HTMLImageElement>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  const stageRef = useRef<PaperStage | null>(null);
  const stageInput = { doc, diameters, mode, readOnly, selection, referenceIndex };
  const inputRef = useRef(stageInput);
  inputRef.current = stageInput;

  const edit = useCallback((fn: (d: EditorDoc) => EditorDoc, tag?: string) => dispatch({ type: "edit", fn, tag }), []);

  useEffect(() => {
    const canvas = canvasRef.current!;
    const frame = frameRef.current!;
    canvas.width = frame.clientWidth;
    canvas.height = frame.clientHeight;
    const stage = new PaperStage(
      canvas,
      logsCanvasRef.current!,
      photoRef.current,
      { width: props.photo.width, height: props.photo.height },
      shape,
      {
        edit: (fn) => edit(fn),
        select: (keys) => setSelection(keys),
        selectReference: (i) => setReferenceIndex(i),
        fallbackRadius: () => fallbackRadiusPx(inputRef.current.doc),
        defaultReferenceSize: () => 1,
        onZoom: setZoom,
      },
      inputRef.current,
    );
    stageRef.current = stage;
    // Image/screen conversion and redraw counts, for browser tests and bench/editor-bench.ts to
    // drive the editor with the mouse where the logs really are. Read-only; holds no data.
    (window as unknown as { timberEditor?: unknown }).timberEditor = {
      toScreen: (x: number, y: number) => stage.toScreen(x, y),
      toImage: (x: number, y: number) => stage.toImage(x, y),
      get stats() {
        const s = stage.drawStats;
        return { draws: s.paper.draws, drawMs: s.paper.drawMs, logsDraws: s.logs.draws, logsDrawMs: s.logs.drawMs };
      },
    };
    const observer = new ResizeObserver(() => stage.resize(frame.clientWidth, frame.clientHeight));
    observer.observe(frame);
    frame.dataset.ready = "true";
    performance.mark("editor-ready");
    return () => {
      observer.disconnect();
      stage.destroy();
      stageRef.current = null;
      delete (window as unknown as { timberEditor?: unknown }).timberEditor;
    };
  }, [shape, props.photo.width, props.photo.height, edit]);

  useEffect(() => {
    stageRef.current?.update(stageInput);
  });

  // ---- commands ----
  const deleteSelection = useCallback(() => {
    if (stageRef.current?.deleteSelected()) return;
    if (!selection.size) return;
    edit((d) => spec.remove(d, selection));
    setSelection(new Set());
  }, [edit, spec, selection]);

  const save = useCallback(async () => {
    if (!dirty || saving || readOnly || props.saveLocked) return;
    setSaving(true);
    try {
      const response = await fetch(props.saveUrl, {
        method: "PATCH",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(patch),
      });
      if (!response.ok) {
        const body = (await response.json().catch(() => null)) as {
          error?: string;
          errors?: Record<string, string[]>;
        } | null;
        const detail = body?.errors
          ? Object.values(body.errors)
              .flat()
              .map((k) => t(k))
              .join(" ")
          : (body?.error ?? String(response.status));
        throw new Error(detail);
      }
      showToast({ type: "success", key: "timber:editor.saved" });
      props.onSaved();
    } catch (error) {
      setSaving(false);
      showToast({
        type: "error",
        key: "timber:editor.saveFailed",
        values: { message: error instanceof Error ? error.message : String(error) },
      });
    }
  }, [dirty, saving, readOnly, props, patch, t]);

  const narrowed = props.modes;
  const modes = useMemo(
    () => (readOnly ? (["VIEW"] as const) : spec.modes.filter((m) => !narrowed || narrowed.includes(m))),
    [readOnly, spec, narrowed],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA"))
        return;
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      if (mod && key === "z") {
        e.preventDefault();
        dispatch({ type: e.shiftKey ? "redo" : "undo" });
      } else if (mod && key === "y") {
        e.preventDefault();
        dispatch({ type: "redo" });
      } else if (mod && key === "s") {
        e.preventDefault();
        void save();
      } else if (mod || e.altKey) {
        return;
      } else if (e.key === "Delete" || e.key === "Backspace") {
        if (readOnly) return;
        e.preventDefault();
        deleteSelection();
      } else if (e.key === "Escape") {
        stageRef.current?.cancel();
      } else if (e.key === "Enter") {
        stageRef.current?.finishDrawing();
      } else if (key === "f" || key === "0") {
        stageRef.current?.fit();
      } else if (key === "+" || key === "=") {
        stageRef.current?.zoomBy(1.25);
      } else if (key === "-") {
        stageRef.current?.zoomBy(0.8);
      } else {
        const next = modes.find((m) => MODE_KEYS[m] === key);
        if (next) setMode(next);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [modes, save, deleteSelection, readOnly]);

  // ---- leaving with unsaved changes ----
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && !saving && currentLocation.pathname !== nextLocation.pathname,
  );
  useBeforeUnload(
    useCallback(
      (e: BeforeUnloadEvent) => {
        if (!dirty || saving) return;
        e.preventDefault();
        e.returnValue = "";
      },
      [dirty, saving],
    ),
  );

  // ---- display ----
  const locale = intlLocale(props.locale);
  const fmtVolume = (m3: number | null) =>
    m3 === null
      ? "-"
      : `${formatVolume(convertVolume(m3, "m^3", props.unit), { precision: props.precision, locale })} ${volumeUnitLabel(props.unit)}`;
  const reference = doc.references[referenceIndex] ?? doc.references[0];
  const selectedLogs = shape === "logs" ? doc.logs.filter((l) => selection.has(l.key)) : [];
  const selectedPlanks = shape === "planks" ? doc.planks.filter((p) => selection.has(p.key)) : [];
  const shownVolume = dirty
    ? shape === "planks"
      ? lumberPreview?.volumeM3
      : timberPreview?.volumeM3
    : props.server.volumeM3;

  return (
    <div className="editor" data-testid="measurement-editor" data-dirty={dirty ? "true" : "false"}>
      <div className="editor-toolbar" role="toolbar" aria-label={t("editor.toolbar")}>
        <div className="editor-modes" role="group" aria-label={t("editor.modes")}>
          {modes.map((m) => (
            <button
              key={m}
              type="button"
              className={m === mode ? "btn btn-small btn-primary" : "btn btn-small"}
              aria-pressed={m === mode}
              title={`${t(`editor.mode.${m}`)} (${MODE_KEYS[m].toUpperCase()})`}
              onClick={() => setMode(m)}
              data-testid={`mode-${m}`}
            >
              {t(`editor.mode.${m}`)}
            </button>
          ))}
        </div>
        {shape === "logs" ? (
          <>
            <label className="editor-field">
              <span>{t("editor.referenceSize")}</span>
              <ReferenceSizeInput
                metres={reference?.size ?? null}
                unit={refUnit}
                disabled={readOnly || !reference}
                onChange={(metres) =>
                  edit(
                    (d) =>
                      setReference(d, d.references[referenceIndex] ? referenceIndex : 0, {
                        ...(d.references[referenceIndex] ?? d.references[0]),
                        size: metres,
                      }),
                    `ref-size-${referenceIndex}`,
                  )
                }
              />
              <select
                aria-label={t("editor.referenceUnit")}
                value={refUnit}
                onChange={(e) => setRefUnit(e.target.value as "cm" | "ft")}
                data-testid="reference-unit"
              >
                <option value="cm">cm</option>
                <option value="ft">ft</option>
              </select>
            </label>
            <label className="editor-field">
              <span>{t("fields.formula")}</span>
              <select
                value={doc.formula}
                disabled={readOnly}
                onChange={(e) => edit((d) => setFormula(d, e.target.value))}
                data-testid="editor-formula"
              >
                {props.formulas.map((f) => (
                  <option key={f} value={f}>
                    {formulaName(t, f)}
                  </option>
                ))}
              </select>
            </label>
          </>
        ) : null}
        <div className="editor-actions">
          <button
            type="button"
            className="btn btn-small"
            onClick={() => dispatch({ type: "undo" })}
            disabled={!history.past.length}
            title={`${t("editor.undo")} (Ctrl+Z)`}
            data-testid="editor-undo"
          >
            {t("editor.undo")}
          </button>
          <button
            type="button"
            className="btn btn-small"
            onClick={() => dispatch({ type: "redo" })}
            disabled={!history.future.length}
            title={`${t("editor.redo")} (Ctrl+Shift+Z)`}
            data-testid="editor-redo"
          >
            {t("editor.redo")}
          </button>
          <button
            type="button"
            className="btn btn-small"
            onClick={() => stageRef.current?.zoomBy(0.8)}
            aria-label={t("editor.zoomOut")}
          >
            −
          </button>
          <span className="editor-zoom" aria-live="polite">
            {Math.round(zoom * 100)}%
          </span>
          <button
            type="button"
            className="btn btn-small"
            onClick={() => stageRef.current?.zoomBy(1.25)}
            aria-label={t("editor.zoomIn")}
          >
            +
          </button>
          <button
            type="button"
            className="btn btn-small"
            onClick={() => stageRef.current?.fit()}
            title={`${t("editor.fit")} (F)`}
            data-testid="editor-fit"
          >
            {t("editor.fit")}
          </button>
          {readOnly ? null : (
            <button
              type="button"
              className="btn btn-small btn-primary"
              onClick={() => void save()}
              disabled={!dirty || saving || props.saveLocked}
              data-testid="editor-save"
              title={props.saveLocked ? t("editor.saveLocked") : undefined}
            >
              {saving ? t("editor.saving") : t("editor.save")}
            </button>
          )}
        </div>
      </div>

      <div className="editor-body">
        <div className="editor-frame" ref={frameRef} data-testid="editor-frame">
          {props.photo.src ? (
            <img
              ref={photoRef}
              className="editor-photo"
              decoding="async"
              src={props.photo.src}
              width={props.photo.width}
              height={props.photo.height}
              alt=""
              draggable={false}
            />
          ) : null}
          <canvas ref={logsCanvasRef} className="editor-canvas editor-logs" aria-hidden />
          <canvas
            ref={canvasRef}
            className="editor-canvas"
            data-testid="editor-canvas"
            aria-label={t("editor.canvas")}
          />
        </div>
        <aside className="editor-side">
          <p className="editor-help" data-testid="editor-help">
            {t(spec.helpKey(mode))}
          </p>
          <dl className="editor-summary" aria-live="polite">
            {shape === "logs" ? (
              <>
                <dt>{t("table.logs")}</dt>
                <dd data-testid="editor-log-count">
                  {dirty ? (timberPreview?.logCount ?? doc.logs.length) : props.server.count}
                </dd>
                <dt>{t("table.volume")}</dt>
                <dd data-testid="editor-volume">{fmtVolume(shownVolume ?? null)}</dd>
                <dt>{t("detail.averageDiameter")}</dt>
                <dd data-testid="editor-average-diameter">
                  {timberPreview?.averageDiameterCm ? format.diameter(timberPreview.averageDiameterCm) : "-"}
                </dd>
                {timberPreview?.areaM2 !== null && timberPreview?.areaM2 !== undefined ? (
                  <>
                    <dt>{t("editor.area")}</dt>
                    <dd data-testid="editor-area">{format.quantity(timberPreview.areaM2, 2, "m²")}</dd>
                    <dt>{t("editor.stacked")}</dt>
                    <dd data-testid="editor-stacked">{fmtVolume(timberPreview.stackedM3)}</dd>
                  </>
                ) : null}
                {timberPreview?.coefficient !== null && timberPreview?.coefficient !== undefined ? (
                  <>
                    <dt>{t("fields.coefficient")}</dt>
                    <dd data-testid="editor-coefficient">{format.number(timberPreview.coefficient, 4)}</dd>
                  </>
                ) : null}
              </>
            ) : (
              <>
                <dt>{t("editor.planks")}</dt>
                <dd data-testid="editor-plank-count">
                  {dirty ? (lumberPreview?.plankCount ?? 0) : props.server.count}
                </dd>
                <dt>{t("table.volume")}</dt>
                <dd data-testid="editor-volume">{fmtVolume(shownVolume ?? null)}</dd>
              </>
            )}
          </dl>
          <p className={dirty ? "editor-state dirty" : "editor-state"} data-testid="editor-state">
            {dirty ? t("editor.preview") : t("editor.savedNumbers")}
          </p>
          {timberPreview && !timberPreview.volumeM3 && doc.logs.length && !doc.references.length ? (
            <p className="alert alert-warning">{t("editor.needsReference")}</p>
          ) : null}
          {readOnly ? (
            <p className="alert alert-info" role="note" data-testid="editor-read-only">
              {t("editor.readOnly")}
            </p>
          ) : null}
          {props.saveLocked ? (
            <p className="alert alert-warning" role="note" data-testid="editor-save-locked">
              {t("editor.saveLocked")}
            </p>
          ) : null}
          {selectedLogs.length ? (
            <section className="editor-selection" data-testid="editor-selection">
              <h3>{t("editor.selectedLogs", { count: selectedLogs.length })}</h3>
              {selectedLogs.length === 1 ? (
                <p data-testid="selected-diameter">{format.diameter(diameters.get(selectedLogs[0].key) ?? 0)}</p>
              ) : null}
              {spec.logAttributes ? (
                <>
                  <label className="field">
                    <span>{t("fields.assortment")}</span>
                    <select
                      disabled={readOnly}
                      value={sameValue(selectedLogs.map((l) => l.assortmentId))}
                      onChange={(e) =>
                        edit((d) =>
                          changeLogs(
                            d,
                            new Map(
                              selectedLogs.map((l) => [
                                l.key,
                                { assortmentId: e.target.value ? Number(e.target.value) : null },
                              ]),
                            ),
                          ),
                        )
                      }
                      data-testid="selected-assortment"
                    >
                      <option value="">{t("none")}</option>
                      {props.assortments.map((a) => (
                        <option key={a.id} value={a.id}>
                          {a.name}
                        </option>
                      ))}
                    </select>
                  </label>
                  <label className="field">
                    <span>{t("editor.cull")}</span>
                    <select
                      disabled={readOnly}
                      value={sameValue(selectedLogs.map((l) => l.cullId))}
                      onChange={(e) =>
                        edit((d) =>
                          changeLogs(
                            d,
                            new Map(
                              selectedLogs.map((l) => [
                                l.key,
                                { cullId: e.target.value ? Number(e.target.value) : null },
                              ]),
                            ),
                          ),
                        )
                      }
                      data-testid="selected-cull"
                    >
                      <option value="">{t("none")}</option>
                      {props.culls.map((c) => (
                        <option key={c.id} value={c.id}>
                          {c.name}
                        </option>
                      ))}
                    </select>
                  </label>
                </>
              ) : null}
              {readOnly ? null : (
                <button
                  type="button"
                  className="btn btn-small btn-danger"
                  onClick={deleteSelection}
                  data-testid="delete-selection"
                >
                  {t("editor.deleteSelected")}
                </button>
              )}
            </section>
          ) : null}
          {selectedPlanks.length && !readOnly ? (
            <section className="editor-selection" data-testid="editor-selection">
              <h3>{t("editor.selectedPlanks", { count: selectedPlanks.length })}</h3>
              <button
                type="button"
                className="btn btn-small btn-danger"
                onClick={deleteSelection}
                data-testid="delete-selection"
              >
                {t("editor.deleteSelected")}
              </button>
            </section>
          ) : null}
          {shape === "logs" && doc.area && mode === "MEASUREMENT_AREA" && !readOnly ? (
            <button
              type="button"
              className="btn btn-small"
              onClick={() => edit((d) => ({ ...d, area: null }))}
              data-testid="clear-area"
            >
              {t("editor.clearArea")}
            </button>
          ) : null}
        </aside>
      </div>

      {blocker.state === "blocked" ? (
        <div className="dialog-backdrop" role="presentation">
          <div
            className="dialog"
            role="alertdialog"
            aria-modal="true"
            aria-labelledby="unsaved-title"
            data-testid="unsaved-dialog"
          >
            <h2 id="unsaved-title">{t("editor.unsavedTitle")}</h2>
            <p>{t("editor.unsavedText")}</p>
            <div className="dialog-actions">
              <button type="button" className="btn" onClick={() => blocker.reset()} data-testid="unsaved-stay">
                {t("editor.stay")}
              </button>
              <button
                type="button"
                className="btn btn-danger"
                onClick={() => blocker.proceed()}
                data-testid="unsaved-leave"
              >
                {t("editor.leave")}
              </button>
            </div>
          </div>
        </div>
      ) : null}
    </div>
  );
}

const EMPTY_DIAMETERS = new Map<string, number>();

function sameValue(values: Array<number | null>) {
  const first = values[0];
  return values.every((v) => v === first) && first !== null ? String(first) : "";
}

/** A new log where no other is near: 20 cm across by the first reference, else 30 px. */
function fallbackRadiusPx(doc: EditorDoc) {
  const ref = doc.references[0];
  if (!ref || !(ref.size > 0)) return 30;
  const pxPerCm = Math.hypot(ref.x2 - ref.x1, ref.y2 - ref.y1) / (ref.size * 100);
  return pxPerCm > 0 ? 10 * pxPerCm : 30;
}

/** The reference's size typed in cm or ft; stored in metres. */
function ReferenceSizeInput({
  metres,
  unit,
  disabled,
  onChange,
}: {
  metres: number | null;
  unit: "cm" | "ft";
  disabled: boolean;
  onChange(metres: number): void;
}) {
  const { t } = useTranslation("timber");
  const shown = metres === null ? "" : String(round(convertLength(metres, "m", unit), 4));
  const [text, setText] = useState(shown);
  const [invalid, setInvalid] = useState(false);
  useEffect(() => {
    setText(shown);
    setInvalid(false);
  }, [shown]);
  return (
    <>
      <input
        type="number"
        inputMode="decimal"
        min="0"
        step="any"
        value={text}
        disabled={disabled}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? "reference-size-error" : undefined}
        onChange={(e) => {
          setText(e.target.value);
          const value = Number(e.target.value.replace(",", "."));
          const ok = e.target.value.trim() !== "" && Number.isFinite(value) && value > 0;
          setInvalid(!ok);
          if (ok) onChange(convertLength(value, unit, "m"));
        }}
        data-testid="reference-size"
        className="editor-size"
      />
      {invalid ? (
        <span id="reference-size-error" className="field-errors" role="alert">
          {t("editor.referenceSizeInvalid")}
        </span>
      ) : null}
    </>
  );
}

function round(v: number, digits: number) {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}
