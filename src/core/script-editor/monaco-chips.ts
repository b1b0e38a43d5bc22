/**
 * How the cursor and the keys treat a script's chips (monaco-script.tsx): the cursor skips them (a click on one goes
 * to its nearer side), and Backspace after / Delete before a marker removes all of it.
 */
import { snapSelection, unitDeletion, type MarkerRange } from './markers';
import { monaco } from './monaco-env';

/** The editor and what it knows of its markers. */
export interface ChipEditor {
  editor: monaco.editor.IStandaloneCodeEditor;
  model: monaco.editor.ITextModel;
  /** The markers of the current text. */
  markers: () => readonly MarkerRange[];
  rangeOf: (start: number, end: number) => monaco.Range;
}

/** Snaps each cursor move that lands inside a chip to the edge it was heading for; what it returns undoes it. */
export function snapCaretToChips({ editor, model, markers }: ChipEditor, host: HTMLElement): monaco.IDisposable[] {
  let previousActive: number[] = [];
  let snapping = false;
  /** Where the pointer was last pressed or dragged (client x): a click on a chip goes to the chip's nearer side. */
  let pointerX: number | null = null;
  /** The chip under the pointer next to (or around) an offset, and the edge of it nearer the pointer. */
  const pointerEdge = (list: readonly MarkerRange[], offset: number): number | undefined => {
    if (pointerX === null) return undefined;
    const origin = editor.getDomNode()!.getBoundingClientRect().left;
    const x = pointerX - origin;
    for (const m of list) {
      if (m.start > offset || m.end < offset) continue;
      const left = editor.getScrolledVisiblePosition(model.getPositionAt(m.start));
      const right = editor.getScrolledVisiblePosition(model.getPositionAt(m.end));
      if (!left || !right || left.top !== right.top || x < left.left || x > right.left) continue;
      return x < (left.left + right.left) / 2 ? m.start : m.end;
    }
    return undefined;
  };
  // Captured before Monaco handles the press (its own mouse events come after it has placed the cursor).
  const notePointer = (e: PointerEvent) => {
    if (e.type === 'pointerdown' || e.buttons) pointerX = e.clientX;
  };
  host.addEventListener('pointerdown', notePointer, true);
  host.addEventListener('pointermove', notePointer, true);
  return [
    { dispose: () => host.removeEventListener('pointerdown', notePointer, true) },
    { dispose: () => host.removeEventListener('pointermove', notePointer, true) },
    editor.onDidChangeCursorSelection((e) => {
      if (snapping) return;
      const list = markers();
      const selections = editor.getSelections() ?? [];
      const byPointer = e.source === 'mouse';
      let moved = false;
      const next = selections.map((s, i) => {
        const anchor = model.getOffsetAt({ lineNumber: s.selectionStartLineNumber, column: s.selectionStartColumn });
        const active = model.getOffsetAt(s.getPosition());
        const edge = byPointer ? pointerEdge(list, active) : undefined;
        const snapped =
          edge === undefined
            ? snapSelection(list, anchor, active, previousActive[i], byPointer ? 'nearest' : undefined)
            : { anchor: anchor === active ? edge : snapSelection(list, anchor, edge).anchor, active: edge };
        if (snapped.anchor === anchor && snapped.active === active) return s;
        moved = true;
        return monaco.Selection.fromPositions(model.getPositionAt(snapped.anchor), model.getPositionAt(snapped.active));
      });
      previousActive = next.map((s) => model.getOffsetAt(s.getPosition()));
      if (!moved) return;
      snapping = true;
      try {
        editor.setSelections(next);
      } finally {
        snapping = false;
      }
    }),
  ];
}

/** Backspace after / Delete before a marker removes all of it; otherwise the editor's own deletion runs. */
export function deleteChipsWhole({ editor, model, markers, rangeOf }: ChipEditor): void {
  const unitDelete = (key: 'backspace' | 'delete', fallback: string) => () => {
    const selections = editor.getSelections() ?? [];
    const s = selections[0];
    if (selections.length === 1 && s && s.isEmpty()) {
      const hit = unitDeletion(markers(), model.getOffsetAt(s.getPosition()), key);
      if (hit) {
        editor.pushUndoStop();
        editor.executeEdits('pause-marker', [{ range: rangeOf(hit.start, hit.end), text: '' }], [monaco.Selection.fromPositions(model.getPositionAt(hit.start))]);
        editor.pushUndoStop();
        return;
      }
    }
    editor.trigger('keyboard', fallback, null);
  };
  const { KeyCode, KeyMod } = monaco;
  editor.addCommand(KeyCode.Backspace, unitDelete('backspace', 'deleteLeft'));
  editor.addCommand(KeyCode.Delete, unitDelete('delete', 'deleteRight'));
  editor.addCommand(KeyMod.CtrlCmd | KeyCode.Backspace, unitDelete('backspace', 'deleteWordLeft'));
  editor.addCommand(KeyMod.CtrlCmd | KeyCode.Delete, unitDelete('delete', 'deleteWordRight'));
}
