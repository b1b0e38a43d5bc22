/**
 * The Monaco surface of the script editor (loaded lazily with Monaco itself). It shows pause markers as chips,
 * keeps the cursor out of them, deletes them as one unit, cuts a paste past the character limit down to what fits
 * and refuses other edits past it; the rules
 * themselves are the pure helpers of markers.ts.
 *
 * How a chip works: the mark's text (`<#0.5#>`, `(laughs)`) stays in the model (what is saved is what the engines read).
 * A decoration makes its characters zero-width; all but the first carry a `::before` box with "0.5s" or "笑声", so the
 * model offset before the mark draws left of the chip and the offset after it draws right of it. Cursor moves that
 * land inside are snapped to the edge they were heading for; Backspace after / Delete before a marker remove it whole;
 * any other edit that cut a marker (word deletion, a phone keyboard) has the rest removed in the same undo step.
 */
import { useEffect, useRef, type Ref } from 'react';
import { brokenFragments, chipClasses, diffEdit, findMarkers, fitToLimit, limitRefusal, type MarkerRange, type TextChange } from './markers';
import { ensureChipRule, monaco, monacoTheme } from './monaco-env';
import { OPTIONS } from './monaco-options';
import { deleteChipsWhole, snapCaretToChips } from './monaco-chips';

/** What the toolbar, the dialogs and the palette do to the text. */
export interface ScriptSurface {
  focus(): void;
  /** Inserts at the cursor (after a selection, which is kept out of the way) and puts the cursor after it. */
  insertAtCursor(text: string): boolean;
  /** Replaces the whole script (polish, AI writing) as one undoable step; false when the limit refused it. */
  replaceAll(text: string): boolean;
}

export interface MonacoScriptProps {
  value: string;
  onChange: (value: string) => void;
  limit: number;
  /** An edit was refused (the limit): the message to show. */
  onRefused: (message: string) => void;
  onFocus: () => void;
  /** Ctrl/Cmd+K inside the editor (Monaco would take it as the start of a chord): the workbench's own binding runs. */
  onModK: () => void;
  theme: 'dark' | 'light';
  placeholder: string;
  ariaLabel: string;
  surfaceRef: Ref<ScriptSurface>;
}

export default function MonacoScript(props: MonacoScriptProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  /** The last text the editor accepted (what onChange last said). */
  const acceptedRef = useRef(props.value);
  const latest = useRef(props);
  latest.current = props;
  const syncRef = useRef<((value: string) => void) | null>(null);

  useEffect(() => {
    const host = hostRef.current!;
    const p = latest.current;
    const editor = monaco.editor.create(host, { ...OPTIONS, value: p.value, theme: monacoTheme(p.theme), placeholder: p.placeholder, ariaLabel: p.ariaLabel });
    const model = editor.getModel()!;
    model.setEOL(monaco.editor.EndOfLineSequence.LF);
    acceptedRef.current = model.getValue();

    let markerCache: { version: number; markers: MarkerRange[] } = { version: -1, markers: [] };
    const markers = () => {
      const version = model.getVersionId();
      if (markerCache.version !== version) markerCache = { version, markers: findMarkers(model.getValue()) };
      return markerCache.markers;
    };
    const rangeOf = (start: number, end: number) => monaco.Range.fromPositions(model.getPositionAt(start), model.getPositionAt(end));

    const chips = editor.createDecorationsCollection();
    let painted = '';
    const paint = () => {
      const list = markers();
      // Monaco moves decorations with the edits around them: when the chips it has are still the script's, setting
      // them again (hundreds in a long script, each re-wrapping its line) is work for nothing on every keystroke.
      const wanted = list.map((m) => `${m.start}:${m.end}:${chipClasses(m)}`).join('|');
      const ranges = chips.getRanges();
      const have = ranges.length === list.length * 2 ? list.map((m, i) => `${model.getOffsetAt(ranges[2 * i]!.getStartPosition())}:${model.getOffsetAt(ranges[2 * i + 1]!.getEndPosition())}:${chipClasses(m)}`).join('|') : '';
      if (wanted === have && painted === list.map((m) => chipClasses(m)).join('|')) return;
      painted = list.map((m) => chipClasses(m)).join('|');
      chips.set(
        list.flatMap((m) => {
          ensureChipRule(m);
          const options = { inlineClassNameAffectsLetterSpacing: true, stickiness: monaco.editor.TrackedRangeStickiness.NeverGrowsWhenTypingAtEdges };
          return [
            { range: rangeOf(m.start, m.start + 1), options: { ...options, inlineClassName: 'se-chip-edge' } },
            { range: rangeOf(m.start + 1, m.end), options: { ...options, inlineClassName: chipClasses(m) } },
          ];
        }),
      );
    };
    paint();

    /** Edits the editor makes itself (repairs, refusals, outside value changes) are not judged again. */
    let own = false;
    const ownEdit = (edits: monaco.editor.IIdentifiedSingleEditOperation[], cursorAt?: number) => {
      own = true;
      try {
        model.pushEditOperations(editor.getSelections(), edits, () => null);
      } finally {
        own = false;
      }
      // The edit being judged (typing, a paste) places its own cursor after this listener returns: ours goes after that.
      if (cursorAt !== undefined) queueMicrotask(() => editor.setSelection(monaco.Selection.fromPositions(model.getPositionAt(cursorAt))));
    };

    let composing = false;
    /** Judges the edit that led from the accepted text to the model's: repairs broken markers, refuses it past the limit. */
    const settle = (changes: readonly TextChange[] | null) => {
      const before = acceptedRef.current;
      if (changes) {
        const fragments = brokenFragments(before, changes);
        if (fragments.length) ownEdit(fragments.map((f) => ({ range: rangeOf(f.start, f.end), text: '' })));
      }
      const text = model.getValue();
      // A long paste keeps what fits (once, with one message) instead of being refused whole.
      const fit = fitToLimit(before, text, latest.current.limit);
      if (fit) {
        const cut = diffEdit(text, fit.text);
        ownEdit([{ range: rangeOf(cut.rangeOffset, cut.rangeOffset + cut.rangeLength), text: cut.text }], fit.cursor);
        acceptedRef.current = fit.text;
        paint();
        latest.current.onRefused(fit.message);
        if (fit.text !== latest.current.value) latest.current.onChange(fit.text);
        return;
      }
      const refusal = limitRefusal(before, text, latest.current.limit);
      if (refusal) {
        const back = diffEdit(text, before);
        ownEdit([{ range: rangeOf(back.rangeOffset, back.rangeOffset + back.rangeLength), text: back.text }], back.rangeOffset + back.text.length);
        paint();
        latest.current.onRefused(refusal);
        return;
      }
      acceptedRef.current = text;
      paint();
      if (text !== latest.current.value) latest.current.onChange(text);
    };

    const disposables: monaco.IDisposable[] = [
      model.onDidChangeContent((e) => {
        if (own) return;
        if (composing) {
          paint();
          return;
        }
        if (e.isUndoing || e.isRedoing) {
          // Undo and redo return to states the editor accepted once; the limit may have shrunk since, which the counter shows.
          acceptedRef.current = model.getValue();
          paint();
          latest.current.onChange(acceptedRef.current);
          return;
        }
        settle(e.changes);
      }),
      editor.onDidCompositionStart(() => {
        composing = true;
      }),
      editor.onDidCompositionEnd(() => {
        composing = false;
        settle(null);
      }),
      editor.onDidFocusEditorText(() => latest.current.onFocus()),
    ];

    const chipEditor = { editor, model, markers, rangeOf };
    // The cursor skips chips; Backspace after / Delete before a marker removes all of it.
    disposables.push(...snapCaretToChips(chipEditor, host));
    deleteChipsWhole(chipEditor);
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyK, () => latest.current.onModK());

    const surface: ScriptSurface = {
      focus: () => editor.focus(),
      insertAtCursor(text) {
        const selection = editor.getSelection();
        if (!selection) return false;
        const at = model.getOffsetAt(selection.getEndPosition());
        const before = model.getValue();
        editor.pushUndoStop();
        editor.executeEdits('insert', [{ range: rangeOf(at, at), text }], () => [monaco.Selection.fromPositions(model.getPositionAt(at + text.length))]);
        editor.pushUndoStop();
        editor.focus();
        return model.getValue() !== before;
      },
      replaceAll(text) {
        editor.pushUndoStop();
        editor.executeEdits('replace', [{ range: model.getFullModelRange(), text }], () => [monaco.Selection.fromPositions(model.getPositionAt(text.length))]);
        editor.pushUndoStop();
        return model.getValue() === text;
      },
    };
    assignRef(latest.current.surfaceRef, surface);
    syncRef.current = (value) => {
      if (model.getValue() === value) return;
      const edit = diffEdit(model.getValue(), value);
      editor.pushUndoStop();
      ownEdit([{ range: rangeOf(edit.rangeOffset, edit.rangeOffset + edit.rangeLength), text: edit.text }]);
      editor.pushUndoStop();
      acceptedRef.current = value;
      paint();
    };

    return () => {
      assignRef(latest.current.surfaceRef, null);
      syncRef.current = null;
      for (const d of disposables) d.dispose();
      editor.dispose();
      model.dispose();
    };
  }, []);

  // The host changed the value (a new draft, a cleared script): follow it as one undoable step.
  useEffect(() => {
    syncRef.current?.(props.value);
  }, [props.value]);

  useEffect(() => {
    monaco.editor.setTheme(monacoTheme(props.theme));
  }, [props.theme]);

  return <div ref={hostRef} className="se-surface" data-testid="script-surface" />;
}

function assignRef<T>(ref: Ref<T> | undefined, value: T | null) {
  if (typeof ref === 'function') ref(value as T);
  else if (ref) (ref as { current: T | null }).current = value;
}
