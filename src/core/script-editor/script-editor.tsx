/**
 * The script editor (part 2 §2.2 text-driven mode, §2.3 text scenes): a Monaco surface with pause chips, the
 * insert-pause menu, text polish and its emotion-mark variant, AI writing, the language cascader and emotion
 * selector where the channel has them, and the counter against the channel's limit (markers do not count).
 *
 * Monaco itself loads with the first editor shown (MonacoScript is a lazy chunk); until then a skeleton holds the place.
 */
import { Suspense, lazy, useEffect, useMemo, useRef, useState } from 'react';
import { Button, HTMLSelect, Icon, Menu, MenuDivider, MenuItem, Popover, Spinner, Tooltip } from '@blueprintjs/core';
import { API, LIMITS, MSG, estimateSeconds, pauseMarker, type LanguageOption } from '../../contract';
import { ApiCallError } from '../api-client';
import { useObservable, useService } from '../react';
import { TOKENS, type ApiClient, type CommandRegistry, type Notifier, type ThemeService } from '../tokens';
import { AUDITION_LABELS, type ScriptEditorHandle, type ScriptEditorState } from './editor-state';
import { PAUSE_CHOICES, editorLimit, hasText, limitState, pausesAllowed } from './markers';
import type { ScriptSurface } from './monaco-script';
import { AiWritingDialog } from './ai-writing-dialog';
import './script-editor.css';

const MonacoScript = lazy(() => import('./monaco-script'));

export interface ScriptEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** The voice's channel (fish, nw, …): sets the limit (500 for nw), hides pauses for fish and nw, picks the languages. */
  channelApi?: string;
  /** Overrides the channel's limit. */
  limit?: number;
  /** Shown as 试听 and in the palette while the editor has the cursor. */
  onAudition?: () => void;
  auditionBusy?: boolean;
  /** The audition is ready and unchanged: the button says 播放试听 (as the preview's does). */
  auditionReady?: boolean;
  /** In the palette while the editor has the cursor (提交合成视频). */
  onSubmit?: () => void;
  /** The channel has a language choice (options from API.voices.language). */
  showLanguage?: boolean;
  language?: string;
  onLanguageChange?: (language: string) => void;
  /** The channel has emotions (LIMITS.emotions). */
  showEmotion?: boolean;
  emotion?: string;
  onEmotionChange?: (emotion: string) => void;
  /** The channel's line on supported languages. */
  languageHint?: string;
  placeholder?: string;
  className?: string;
}

type Busy = null | 'polish' | 'emotion';

/** The outermost element under <body> that holds a node: the app, or a layer (popover, dialog, palette, toast). */
function layerOf(node: Node): Node {
  let n = node;
  while (n.parentNode && n.parentNode !== n.ownerDocument?.body) n = n.parentNode;
  return n;
}

export function ScriptEditor(props: ScriptEditorProps) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const notifier = useService<Notifier>(TOKENS.Notifier);
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

  const languages = useLanguages(props.showLanguage ? props.channelApi : undefined);
  const aiTitle = aiUnavailable ?? undefined;
  const counterClass = counter.over ? 'over' : counter.near ? 'near' : '';

  const pauseItems = (
    <Menu className="se-pause-menu" data-testid="pause-menu">
      <MenuDivider title="插入停顿" />
      {PAUSE_CHOICES.map((c) => (
        <MenuItem key={c.seconds} icon="stopwatch" text={c.label} label={c.marker} onClick={() => insertPause(c.seconds)} data-testid={`pause-${c.seconds}`} />
      ))}
    </Menu>
  );

  return (
    <div ref={rootRef} className={`se-root ${props.className ?? ''}`} data-testid="script-editor">
      <div className="se-toolbar" role="toolbar" aria-label="台词工具">
        {pauses && (
          <Popover
            content={pauseItems}
            isOpen={pauseMenu}
            onInteraction={(next) => setPauseMenu(next)}
            placement="bottom-start"
            autoFocus={false}
            enforceFocus={false}
            minimal
          >
            <Button
              variant="minimal"
              icon="stopwatch"
              endIcon="caret-down"
              // Keeps the editor's cursor where it is while the menu opens.
              onMouseDown={(e) => e.preventDefault()}
              data-testid="pause-open"
            >
              <Label long="插入停顿" short="停顿" />
            </Button>
          </Popover>
        )}
        <AiButton icon="clean" long="文本润色" short="润色" busy={busy === 'polish'} disabled={busy !== null} unavailable={aiTitle} onClick={() => void polish(false)} testId="polish" />
        <AiButton icon="emoji" long="情绪标记" short="情绪" busy={busy === 'emotion'} disabled={busy !== null} unavailable={aiTitle} onClick={() => void polish(true)} testId="polish-emotion" />
        <AiButton icon="lightbulb" long="AI 写作" short="AI写作" busy={false} disabled={false} unavailable={aiTitle} onClick={() => setWriting(true)} testId="ai-writing" />
      </div>
      {aiUnavailable && (
        <div className="se-notice" role="status" data-testid="ai-unavailable">
          <Icon icon="info-sign" size={12} />
          <span>文本润色和 AI 写作暂不可用：{aiUnavailable}</span>
        </div>
      )}

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

      <div className="se-footer">
        <div className="se-options">
          {props.showLanguage && languages.length > 0 && (
            <HTMLSelect
              className="se-select"
              value={props.language ?? ''}
              onChange={(e) => props.onLanguageChange?.(e.currentTarget.value)}
              aria-label="语言"
              data-testid="script-language"
              iconName="caret-down"
            >
              <option value="">默认语言</option>
              {languages.map((l) =>
                l.children?.length ? (
                  <optgroup key={l.value} label={l.label}>
                    {l.children.map((c) => (
                      <option key={c.value} value={c.value}>
                        {l.label} · {c.label}
                      </option>
                    ))}
                  </optgroup>
                ) : (
                  <option key={l.value} value={l.value}>
                    {l.label}
                  </option>
                ),
              )}
            </HTMLSelect>
          )}
          {props.showEmotion && (
            <HTMLSelect
              className="se-select"
              value={props.emotion ?? 'default'}
              onChange={(e) => props.onEmotionChange?.(e.currentTarget.value)}
              aria-label="情绪"
              data-testid="script-emotion"
              iconName="caret-down"
            >
              {LIMITS.emotions.map((e) => (
                <option key={e.value} value={e.value}>
                  情绪：{e.label}
                </option>
              ))}
            </HTMLSelect>
          )}
          {props.onAudition && (
            <Button size="small" icon="volume-up" text={props.auditionReady ? AUDITION_LABELS.ready : AUDITION_LABELS.idle} loading={props.auditionBusy} onClick={props.onAudition} data-testid="script-audition" />
          )}
        </div>
        <div className="se-meta">
          {seconds > 0 && <span className="se-estimate">约 {seconds} 秒</span>}
          <span className={`se-counter ${counterClass}`} aria-live="polite" data-testid="script-counter">
            {counter.count}
            <span className="se-counter-limit"> / {counter.limit}</span>
          </span>
        </div>
      </div>
      {props.languageHint && <div className="se-hint">{props.languageHint}</div>}

      <AiWritingDialog isOpen={writing} onClose={() => setWriting(false)} hasText={hasText(props.value)} onWritten={written} onFailure={failed} />
    </div>
  );
}

function Label({ long, short }: { long: string; short: string }) {
  return (
    <>
      <span className="se-label-long">{long}</span>
      <span className="se-label-short">{short}</span>
    </>
  );
}

function AiButton(props: { icon: 'clean' | 'emoji' | 'lightbulb'; long: string; short: string; busy: boolean; disabled: boolean; unavailable?: string; onClick: () => void; testId: string }) {
  const button = (
    <Button variant="minimal" icon={props.icon} loading={props.busy} disabled={props.disabled || Boolean(props.unavailable)} onClick={props.onClick} data-testid={props.testId}>
      <Label long={props.long} short={props.short} />
    </Button>
  );
  return props.unavailable ? (
    <Tooltip content={props.unavailable} placement="bottom" compact>
      <span className="se-tooltip-target">{button}</span>
    </Tooltip>
  ) : (
    button
  );
}

/** The language cascader's options for a channel; none while no channel is chosen or the channel has none. */
function useLanguages(channelApi: string | undefined): LanguageOption[] {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const [options, setOptions] = useState<LanguageOption[]>([]);
  useEffect(() => {
    setOptions([]);
    if (!channelApi) return;
    const controller = new AbortController();
    api.call(API.voices.language, { api: channelApi as never }, { silent: true, signal: controller.signal }).then(
      (reply) => {
        if (!controller.signal.aborted) setOptions(reply.language);
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [api, channelApi]);
  return options;
}

export default ScriptEditor;
