/**
 * The script editor (part 2 §2.2 text-driven mode, §2.3 text scenes): a Monaco surface with pause chips, the
 * insert-pause menu, text polish and its emotion-mark variant, AI writing, the language cascader and emotion
 * selector where the channel has them, and the counter against the channel's limit (markers do not count).
 *
 * Monaco itself loads with the first editor shown (MonacoScript is a lazy chunk); until then a skeleton holds the place.
 */
import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Spinner } from '@blueprintjs/core';
import { lazyChunk } from '../lazy-chunk';
import { API, MSG, estimateSeconds, pauseMarker } from '../../contract';
import { ApiCallError } from '../api-client';
import { useObservable, useScreenServices, useService } from '../react';
import { TOKENS, type CommandRegistry, type ThemeService } from '../tokens';
import type { ScriptEditorHandle, ScriptEditorState } from './editor-state';
import { editorLimit, hasText, limitState, pausesAllowed } from './markers';
import type { ScriptSurface } from './monaco-script';
import { AiWritingDialog } from './ai-writing-dialog';
import { ScriptToolbar, type Busy } from './script-toolbar';
import { ScriptFooter, type ScriptOptions } from './script-footer';
import './script-editor.css';

const MonacoScript = lazyChunk(() => import('./monaco-script'));

/** The editor's props; what the footer shows (channel, language, emotion, audition) is ScriptOptions. */
export interface ScriptEditorProps extends ScriptOptions {
  value: string;
  onChange: (value: string) => void;
  /** Overrides the channel's limit. */
  limit?: number;
  /** In the palette while the editor has the cursor (提交合成视频). */
  onSubmit?: () => void;
  /** The channel's line on supported languages. */
  languageHint?: string;
  placeholder?: string;
  className?: string;
}

/** The outermost element under <body> that holds a node: the app, or a layer (popover, dialog, palette, toast). */
function layerOf(node: Node): Node {
  let n = node;
  while (n.parentNode && n.parentNode !== n.ownerDocument?.body) n = n.parentNode;
  return n;
}

export function ScriptEditor(props: ScriptEditorProps) {
  const { api, notifier } = useScreenServices();
  const themes = useService<ThemeService>(TOKENS.ThemeService);
  const state = useService<ScriptEditorState>(TOKENS.ScriptEditorState);
  const registry = useService<CommandRegistry>(TOKENS.CommandRegistry);
  const theme = useObservable(themes.theme$, themes.current);
  const aiUnavailable = useObservable(state.aiUnavailable$, state.aiUnavailable$.value);

  const rootRef = useRef<HTMLDivElement>(null);
  const surfaceRef = useRef<ScriptSurface | null>(null);
  /** The editor has the cursor: it was focused, and the user has not gone elsewhere in the page since. */
  const caretRef = useRef(false);
  const [busy, setBusy] = useState<Busy>(null);
  const [writing, setWriting] = useState(false);
  const [pauseMenu, setPauseMenu] = useState(false);

  const limit = editorLimit(props.channelApi, props.limit);
  const pauses = pausesAllowed(props.channelApi);
  const counter = limitState(props.value, limit);
  const seconds = Math.round(estimateSeconds(props.value));

  const latest = useRef({ props, pauses, aiUnavailable });
  latest.current = { props, pauses, aiUnavailable };

  const insertPause = (secondsToInsert: number) => {
    setPauseMenu(false);
    if (!latest.current.pauses) return;
    const surface = surfaceRef.current;
    if (!caretRef.current || !surface) {
      notifier.warn(MSG.cursorOutsideEditor);
      return;
    }
    surface.insertAtCursor(pauseMarker(secondsToInsert));
  };

  const failed = (err: unknown) => {
    if (err instanceof ApiCallError && err.code === 100) return;
    const message = err instanceof Error ? err.message : MSG.serverError;
    state.noteAiFailure(message);
    notifier.error(message);
  };

  const polish = async (emotion: boolean) => {
    const text = latest.current.props.value;
    if (!hasText(text)) {
      notifier.warn(MSG.textRequired);
      return;
    }
    if (latest.current.aiUnavailable) {
      notifier.warn(latest.current.aiUnavailable);
      return;
    }
    setBusy(emotion ? 'emotion' : 'polish');
    try {
      const { content } = await api.call(API.writing.textpolish, emotion ? { text, action: 'emotion' } : { text }, { silent: true });
      if (surfaceRef.current?.replaceAll(content)) notifier.success(MSG.ok);
    } catch (err) {
      failed(err);
    } finally {
      setBusy(null);
    }
  };

  const written = (content: string) => {
    if (surfaceRef.current?.replaceAll(content)) {
      notifier.success(MSG.writingSucceeded);
      return true;
    }
    return false;
  };

  // What the palette acts on while this editor has the cursor (always the latest props).
  const handle = useMemo<ScriptEditorHandle>(
    () => ({
      get pausesAllowed() {
        return latest.current.pauses;
      },
      get canAudition() {
        return Boolean(latest.current.props.onAudition);
      },
      get canSubmit() {
        return Boolean(latest.current.props.onSubmit);
      },
      get aiAvailable() {
        return !latest.current.aiUnavailable;
      },
      insertPause: (s) => insertPauseRef.current(s),
      polish: (emotion) => void polishRef.current(emotion),
      openAiWriting: () => setWriting(true),
      audition: () => latest.current.props.onAudition?.(),
      submit: () => latest.current.props.onSubmit?.(),
    }),
    [],
  );
  const insertPauseRef = useRef(insertPause);
  insertPauseRef.current = insertPause;
  const polishRef = useRef(polish);
  polishRef.current = polish;

  const onSurfaceFocus = () => {
    caretRef.current = true;
    state.activate(handle);
  };

  // The cursor leaves when the user clicks or tabs to anything else of the page; popovers, dialogs, toasts and the
  // palette are layers above it, so opening them keeps it (that is how the menu and the palette insert at it).
  useEffect(() => {
    const root = rootRef.current!;
    const away = (event: Event) => {
      const target = event.target as Node | null;
      if (!caretRef.current || !target || root.contains(target) || layerOf(target) !== layerOf(root)) return;
      caretRef.current = false;
      state.deactivate(handle);
    };
    document.addEventListener('pointerdown', away, true);
    document.addEventListener('focusin', away, true);
    return () => {
      document.removeEventListener('pointerdown', away, true);
      document.removeEventListener('focusin', away, true);
      state.deactivate(handle);
    };
  }, [state, handle]);

  return (
    <div ref={rootRef} className={`se-root ${props.className ?? ''}`} data-testid="script-editor">
      <ScriptToolbar
        pauses={pauses}
        pauseMenu={pauseMenu}
        onPauseMenu={setPauseMenu}
        onInsertPause={insertPause}
        busy={busy}
        onPolish={(emotion) => void polish(emotion)}
        onAiWriting={() => setWriting(true)}
        aiUnavailable={aiUnavailable}
      />

      <div className="se-box">
        <Suspense
          fallback={
            <div className="se-loading">
              <Spinner size={20} />
            </div>
          }
        >
          <MonacoScript
            value={props.value}
            onChange={props.onChange}
            limit={limit}
            onRefused={(message) => notifier.warn(message)}
            onFocus={onSurfaceFocus}
            onModK={() => {
              const palette = registry.list().find((c) => c.keys?.some((k) => k.toLowerCase() === '$mod+k'));
              if (palette) void registry.run(palette.id);
            }}
            theme={theme}
            placeholder={props.placeholder ?? '请输入台词，可在光标处插入停顿…'}
            ariaLabel="台词"
            surfaceRef={surfaceRef}
          />
        </Suspense>
      </div>

      <ScriptFooter {...props} counter={counter} seconds={seconds} />
      {props.languageHint && <div className="se-hint">{props.languageHint}</div>}

      <AiWritingDialog isOpen={writing} onClose={() => setWriting(false)} hasText={hasText(props.value)} onWritten={written} onFailure={failed} />
    </div>
  );
}

export default ScriptEditor;
