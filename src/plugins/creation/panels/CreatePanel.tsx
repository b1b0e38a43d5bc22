/**
 * /create (part 2 §2.2): a dock of four panes the user can rearrange — 脚本 (the script editor), 数字人 (avatar
 * picker), 声音 (voice), 预览 (preview and submit). The arrangement persists (layout.ts). The pickers, audition and
 * submission are first versions to be filled in; the script editor is the real one.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button, Tooltip } from '@blueprintjs/core';
import { DockviewDefaultTab, DockviewReact, themeDark, themeLight, type DockviewApi, type DockviewReadyEvent, type IDockviewPanelHeaderProps } from 'dockview-react';
import { MSG, countChars, scriptLimit } from '../../../contract';
import { TOKENS, useObservable, useService, type Notifier, type PanelProps, type Storage, type ThemeService } from '../../../core';
import { hasText } from '../editor/markers';
import { CreateContext, EMPTY_DRAFT, type CreateContextValue, type CreateDraft } from './create-draft';
import { CREATE_LAYOUT_KEY, applyDefaultLayout, savedLayout, screenClass, withLayout, type ScreenClass } from './layout';
import { ScriptPane } from './ScriptPane';
import { AvatarPane } from './AvatarPane';
import { VoicePane } from './VoicePane';
import { PreviewPane } from './PreviewPane';
import './create.css';

const components = { script: ScriptPane, avatar: AvatarPane, voice: VoicePane, preview: PreviewPane };

/** Tabs without a close button: the four panes are the page, they move but do not go away. */
function PaneTab(props: IDockviewPanelHeaderProps) {
  return <DockviewDefaultTab {...props} hideClose data-testid={`create-tab-${props.api.id}`} />;
}

export default function CreatePanel({ query }: PanelProps) {
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const storage = useService<Storage>(TOKENS.Storage);
  const themes = useService<ThemeService>(TOKENS.ThemeService);
  const theme = useObservable(themes.theme$, themes.current);
  const [draft, setDraft] = useState<CreateDraft>(EMPTY_DRAFT);
  const draftRef = useRef(draft);
  draftRef.current = draft;
  const apiRef = useRef<DockviewApi | null>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const screenRef = useRef<ScreenClass>('wide');

  const update = useCallback((patch: Partial<CreateDraft>) => setDraft((d) => ({ ...d, ...patch })), []);

  // First versions of audition and submission: the spec's checks, in its order; the engines come with the next step.
  const audition = useCallback(() => {
    const d = draftRef.current;
    if (!hasText(d.text) || !d.voice) {
      notifier.warn(MSG.auditionNeedsTextAndVoice);
      return;
    }
    notifier.info(MSG.comingSoon);
  }, [notifier]);
  const submit = useCallback(() => {
    const d = draftRef.current;
    const limit = scriptLimit(d.voice?.api);
    if (!d.avatar) notifier.warn(MSG.avatarRequired);
    else if (!hasText(d.text)) notifier.warn(MSG.scriptRequired);
    else if (!d.voice) notifier.warn(MSG.voiceRequired);
    else if (countChars(d.text) > limit) notifier.warn(MSG.scriptTooLong(limit));
    else notifier.info(MSG.comingSoon);
  }, [notifier]);

  const requested = Number(query.id);
  const value = useMemo<CreateContextValue>(
    () => ({ draft, update, audition, submit, requestedAvatarId: Number.isInteger(requested) && requested > 0 ? requested : null }),
    [draft, update, audition, submit, requested],
  );

  const restore = useCallback(
    (api: DockviewApi) => {
      const width = hostRef.current?.clientWidth ?? window.innerWidth;
      const screen = screenClass(window.innerWidth);
      screenRef.current = screen;
      const saved = savedLayout(storage.get<unknown>(CREATE_LAYOUT_KEY, null), screen);
      if (saved) {
        try {
          api.fromJSON(saved);
          return;
        } catch {
          /* an arrangement this version cannot read: start from the default */
        }
      }
      applyDefaultLayout(api, screen, width);
    },
    [storage],
  );

  const onReady = (event: DockviewReadyEvent) => {
    const api = event.api;
    apiRef.current = api;
    restore(api);
    let timer: ReturnType<typeof setTimeout> | undefined;
    api.onDidLayoutChange(() => {
      clearTimeout(timer);
      const screen = screenRef.current;
      timer = setTimeout(() => {
        if (apiRef.current !== api || screenRef.current !== screen || api.panels.length !== 4) return;
        storage.set(CREATE_LAYOUT_KEY, withLayout(storage.get<unknown>(CREATE_LAYOUT_KEY, null), screen, api.toJSON()));
      }, 150);
    });
  };

  // Crossing the phone breakpoint switches to that screen class's arrangement.
  useEffect(() => {
    const query = window.matchMedia('(max-width: 767px)');
    const changed = () => {
      const api = apiRef.current;
      if (api && screenClass(window.innerWidth) !== screenRef.current) restore(api);
    };
    query.addEventListener('change', changed);
    return () => query.removeEventListener('change', changed);
  }, [restore]);
  useEffect(() => () => void (apiRef.current = null), []);

  const resetLayout = () => {
    const api = apiRef.current;
    if (api) applyDefaultLayout(api, screenRef.current, hostRef.current?.clientWidth ?? window.innerWidth);
  };

  return (
    <CreateContext.Provider value={value}>
      <div className="cr-page" data-testid="create-panel">
        <header className="cr-head">
          <h2 className="cr-title">开始创作</h2>
          <span className="cr-subtitle">拖动标签可调整布局</span>
          <Tooltip content="恢复默认布局" placement="bottom" compact>
            <Button variant="minimal" size="small" icon="reset" aria-label="恢复默认布局" onClick={resetLayout} data-testid="create-reset-layout" />
          </Tooltip>
        </header>
        <div className="cr-dock" ref={hostRef}>
          <DockviewReact
            className="cr-dockview"
            components={components}
            defaultTabComponent={PaneTab}
            onReady={onReady}
            theme={theme === 'dark' ? themeDark : themeLight}
            defaultRenderer="always"
            disableFloatingGroups
          />
        </div>
      </div>
    </CreateContext.Provider>
  );
}
