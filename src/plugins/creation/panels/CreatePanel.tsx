/**
 * /create (part 2 §2.2): a dock of four panes the user can rearrange — 脚本 (drive switch, script editor or audio),
 * 数字人 (avatar picker), 声音 (voices and their parameters), 预览 (preview, audition, 合成视频). The arrangement
 * persists (layout.ts). The draft's rules are in create-logic.ts; the flows (audition with its cache, the channel
 * dialog, synthesis then submission) live here.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, InputGroup, Tooltip } from '@blueprintjs/core';
import { DockviewDefaultTab, DockviewReact, themeDark, themeLight, type DockviewApi, type DockviewReadyEvent, type IDockviewPanelHeaderProps } from 'dockview-react';
import { Subject, merge } from 'rxjs';
import { API, CREATE_TEXT_KEY, LIMITS, MSG, type VideoChannel } from '../../../contract';
import {
  ApiCallError, DraftStore, speakAudition, TOKENS, leadingGate, useObservable, usePanelHost, useService,
  type ApiClient, type AuthService, type Navigation, type Notifier, type PanelProps, type PollingService, type Storage, type ThemeService, TIMINGS,
} from '../../../core';
import { CreateContext, type CreateContextValue } from './create-draft';
import {
  CREATE_DRAFT_KEY, afterRefusal, createDraftRules, hasUnsavedText, applyPatch, auditionKey, auditionProblem, auditionRequest, buildSubmission, cachedAudition, channelProblem,
  draftSeconds, emptyDraft, estimatePrice, parseCreateQuery, submitProblem, withAudition, type CachedAudition, type CreateDraft,
} from './create-logic';
import { ChannelDialog } from './ChannelDialog';
import { CreationStateToken, type CreatePageHandle, type CreationState } from '../creation-state';
import { CREATE_LAYOUT_KEY, applyDefaultLayout, savedLayout, screenClass, scriptUsable, showPane, withLayout, type PaneId, type ScreenClass } from './layout';
import { ScriptPane } from './ScriptPane';
import { AvatarPane } from './AvatarPane';
import { VoicePane } from './VoicePane';
import { PreviewPane } from './PreviewPane';
import { PicturePane } from './PicturePane';
import { CHARACTERS_SCREEN, CREATE_SCREEN, PET_SCREEN, type CreateScreen } from './screens';
import './create.css';

const avatarComponents = { script: ScriptPane, avatar: AvatarPane, voice: VoicePane, preview: PreviewPane };
const pictureComponents = { ...avatarComponents, avatar: PicturePane };

/** An audition still unfinished after this long is given up. */

/** A pane's tab; a closed pane comes back from the palette (开始创作：显示「…」窗格) or the reset button. */
function PaneTab(props: IDockviewPanelHeaderProps) {
  return <DockviewDefaultTab {...props} data-testid={`create-tab-${props.api.id}`} />;
}

/** Every pane closed: the way back. */
function NoPanes() {
  const creation = useService<CreationState>(CreationStateToken);
  return (
    <div className="cr-center cr-no-panes" data-testid="create-no-panes">
      <p>窗格都已关闭</p>
      <Button icon="reset" text="恢复默认布局" onClick={() => creation.createPage?.resetLayout()} />
    </div>
  );
}

/** /pet/establish and /store/characters: the same screen with the picture picker. */
export const PetEstablishPanel = (props: PanelProps) => <CreatePanel {...props} screen={PET_SCREEN} />;
export const CharactersPanel = (props: PanelProps) => <CreatePanel {...props} screen={CHARACTERS_SCREEN} />;

export default function CreatePanel({ query: rawQuery, closed$, screen = CREATE_SCREEN }: PanelProps & { screen?: CreateScreen }) {
  const layoutKey = CREATE_LAYOUT_KEY + screen.layoutSuffix;
  const titles = useMemo(() => ({ avatar: screen.pickerTitle }), [screen.pickerTitle]);
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const storage = useService<Storage>(TOKENS.Storage);
  const polling = useService<PollingService>(TOKENS.PollingService);
  const navigation = useService<Navigation>(TOKENS.Navigation);
  const auth = useService<AuthService>(TOKENS.AuthService);
  const themes = useService<ThemeService>(TOKENS.ThemeService);
  const theme = useObservable(themes.theme$, themes.current);
  const host = usePanelHost();
  // The draft survives closing the tab and reloading; it is dropped after a successful submission.
  const drafts = useMemo(() => new DraftStore(storage, CREATE_DRAFT_KEY + screen.layoutSuffix, createDraftRules), [storage, screen.layoutSuffix]);
  const [draft, setDraft] = useState<CreateDraft>(() => drafts.load() ?? emptyDraft());
  // What was just submitted stays on screen for another variant; it is no longer a draft until it is edited.
  const [submittedDraft, setSubmittedDraft] = useState<CreateDraft | null>(null);
  useEffect(() => {
    if (draft !== submittedDraft) drafts.save(draft);
  }, [drafts, draft, submittedDraft]);
  const unsaved = draft !== submittedDraft && hasUnsavedText(draft);
  useEffect(() => host.setDirty(unsaved), [host, unsaved]);
  const draftRef = useRef(draft);
  draftRef.current = draft;
  const apiRef = useRef<DockviewApi | null>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const screenRef = useRef<ScreenClass>('wide');
  const [auditioning, setAuditioning] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [playToken, setPlayToken] = useState(0);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [channels, setChannels] = useState<{ list: VideoChannel[]; tips: string; loading: boolean }>({ list: [], tips: '', loading: true });
  const gate = useMemo(() => leadingGate(TIMINGS.submitThrottleMs), []);
  const createTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const disposed$ = useMemo(() => new Subject<void>(), []);
  useEffect(() => () => {
    disposed$.next();
    clearTimeout(createTimer.current);
  }, [disposed$]);

  const update = useCallback((patch: Partial<CreateDraft>) => setDraft((d) => applyPatch(d, patch)), []);

  // ---- the address: id/hs/source=3 (the avatar pane picks it), origin=audio&audioId, type=fk (over a stored draft)
  const query = useMemo(() => parseCreateQuery(rawQuery), [rawQuery]);
  useEffect(() => {
    if (!query.storedText) return;
    const text = storage.get<unknown>(CREATE_TEXT_KEY, '');
    if (typeof text === 'string' && text) update({ text, mode: 'text' });
  }, [query.storedText, storage, update]);
  useEffect(() => {
    const id = query.audioId;
    if (id === null) return;
    update({ mode: 'audio', audio: { kind: 'material', id, name: '素材库音频', url: '' } });
    const controller = new AbortController();
    api.call(API.material.list, { page: 1, limit: LIMITS.listLimitAll, type: 'audio', source: 0 }, { silent: true, signal: controller.signal }).then(
      ({ list }) => {
        const hit = list.find((m) => m.id === id);
        if (hit) setDraft((d) => (d.audio?.kind === 'material' && d.audio.id === id ? { ...d, audio: { ...d.audio, name: hit.name, url: hit.url, duration: hit.duration } } : d));
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [query.audioId, api, update]);

  // ---- video channels (the preview's price, the dialog)
  useEffect(() => {
    const controller = new AbortController();
    api.call(API.works.videoChannel, {}, { silent: true, signal: controller.signal }).then(
      (r) => setChannels({ list: r.list, tips: r.tips, loading: false }),
      () => !controller.signal.aborted && setChannels((c) => ({ ...c, loading: false })),
    );
    return () => controller.abort();
  }, [api]);

  // ---- audition: synthesize, poll every 3 s, keep url + file_id while the draft is unchanged
  const synthesize = useCallback(
    async (d: CreateDraft): Promise<CachedAudition | null> => {
      const key = auditionKey(d);
      const job = await speakAudition(api, polling, auditionRequest(d), merge(closed$, disposed$));
      if (!job) {
        notifier.error(MSG.auditionFailed);
        return null;
      }
      const audition = { key, url: job.url, file_id: job.file_id };
      setDraft((cur) => withAudition(cur, audition));
      return audition;
    },
    [api, polling, notifier, closed$, disposed$],
  );

  const audition = useCallback(() => {
    const d = draftRef.current;
    const problem = auditionProblem(d);
    if (problem) {
      notifier.warn(problem);
      return;
    }
    if (cachedAudition(d)) {
      setPlayToken((n) => n + 1);
      return;
    }
    if (auditioning) return;
    setAuditioning(true);
    synthesize(d)
      .then((a) => {
        if (a && auditionKey(draftRef.current) === a.key) setPlayToken((n) => n + 1);
      })
      .catch(() => undefined)
      .finally(() => setAuditioning(false));
  }, [notifier, synthesize, auditioning]);

  // ---- 合成视频: throttled 1 s; the checks, then the channel dialog
  const submit = useCallback(() => {
    if (!gate()) return;
    const problem = submitProblem(draftRef.current);
    if (problem) {
      notifier.warn(problem);
      return;
    }
    setDialogOpen(true);
  }, [gate, notifier]);

  /** The channel's check; the cached audition or a new one (text mode); then the work. */
  const createNow = useCallback(
    async (channelApi: string) => {
      const d = draftRef.current;
      const problem = submitProblem(d) ?? channelProblem(channelApi, d.avatar);
      if (problem) {
        notifier.warn(problem);
        return;
      }
      update({ channel: channelApi });
      setSubmitting(true);
      try {
        let fileId: number | undefined;
        if (d.mode === 'text') {
          const speech = cachedAudition(d) ?? (await synthesize(d));
          if (!speech) return;
          fileId = speech.file_id;
        }
        await api.call(API.works.create, buildSubmission(d, channelApi, fileId));
        setDialogOpen(false);
        drafts.clear();
        setSubmittedDraft(draftRef.current);
        setSubmitted(true);
        void auth.refreshProfile().catch(() => undefined);
      } catch (err) {
        // The server's words were shown; the cache, the pending audio and the text are cleared (part 2 §4).
        if (!(err instanceof ApiCallError && err.code === 100)) setDraft(afterRefusal);
      } finally {
        setSubmitting(false);
      }
    },
    [api, auth, notifier, synthesize, update, drafts],
  );
  /** 开始合成 is debounced 500 ms: the last click of a burst counts. */
  const create = useCallback(
    (channelApi: string) => {
      clearTimeout(createTimer.current);
      createTimer.current = setTimeout(() => void createNow(channelApi), LIMITS.createDebounceMs);
    },
    [createNow],
  );

  const seconds = draftSeconds(draft);
  const value = useMemo<CreateContextValue>(
    () => ({ draft, update, query, audition, auditioning, playToken, submit, submitting, channels: channels.list, screen, seconds }),
    [draft, update, query, audition, auditioning, playToken, submit, submitting, channels.list, screen, seconds],
  );
  const channel = channels.list.find((c) => c.api === draft.channel) ?? channels.list[0];

  const restore = useCallback(
    (api: DockviewApi) => {
      // The page's own width decides (half of a split screen arranges like a narrow one), not the window's.
      const width = hostRef.current?.clientWidth || window.innerWidth;
      const screen = screenClass(width);
      screenRef.current = screen;
      const saved = savedLayout(storage.get<unknown>(layoutKey, null), screen);
      if (saved) {
        try {
          api.fromJSON(saved);
          if (scriptUsable(api)) return;
        } catch {
          /* an arrangement this version cannot read: start from the default */
        }
      }
      applyDefaultLayout(api, screen, width, hostRef.current?.clientHeight ?? 0, titles);
    },
    [storage, layoutKey, titles],
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
        if (apiRef.current !== api || screenRef.current !== screen || api.panels.length === 0) return;
        storage.set(layoutKey, withLayout(storage.get<unknown>(layoutKey, null), screen, api.toJSON()));
      }, 150);
    });
  };

  // The page crossing the narrow width (a window resized, the workbench split or unsplit) switches to that class's arrangement.
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const observer = new ResizeObserver(() => {
      const api = apiRef.current;
      if (api && host.clientWidth > 0 && screenClass(host.clientWidth) !== screenRef.current) restore(api);
    });
    observer.observe(host);
    return () => observer.disconnect();
  }, [restore]);
  useEffect(() => () => void (apiRef.current = null), []);

  const resetLayout = useCallback(() => {
    const api = apiRef.current;
    if (api) applyDefaultLayout(api, screenRef.current, hostRef.current?.clientWidth ?? window.innerWidth, hostRef.current?.clientHeight ?? 0, titles);
  }, [titles]);

  /** Brings a pane to the front (reopening it) and puts the keyboard in it. */
  const revealPane = useCallback((id: PaneId) => {
    const api = apiRef.current;
    if (!api) return;
    showPane(api, id, screenRef.current, hostRef.current?.clientWidth ?? window.innerWidth, titles);
    requestAnimationFrame(() => {
      const pane = hostRef.current?.querySelector<HTMLElement>(`[data-pane="${id}"]`);
      pane?.querySelector<HTMLElement>('button, input, [tabindex]:not([tabindex="-1"])')?.focus();
    });
  }, [titles]);

  // The palette's commands act on this page while it is the active one.
  const creation = useService<CreationState>(CreationStateToken);
  useEffect(() => {
    const handle: CreatePageHandle = {
      get mode() {
        return draftRef.current.mode;
      },
      showPane: revealPane,
      resetLayout,
      submit,
      setMode: (mode) => update({ mode }),
    };
    creation.createPage = handle;
    return () => {
      if (creation.createPage === handle) creation.createPage = null;
    };
  }, [creation, revealPane, resetLayout, submit, update]);

  return (
    <CreateContext.Provider value={value}>
      <div className="cr-page" data-testid="create-panel" data-screen={screen.route}>
        <header className="cr-head">
          <h2 className="cr-title">{screen.title}</h2>
          <InputGroup
            className="cr-name"
            size="small"
            leftIcon="edit"
            value={draft.name}
            maxLength={LIMITS.nameMaxChars}
            placeholder={LIMITS.defaultWorkName}
            aria-label="作品名称"
            onValueChange={(name) => update({ name })}
            onBlur={() => !draft.name.trim() && update({ name: LIMITS.defaultWorkName })}
            data-testid="create-name"
          />
          <span className="cr-subtitle">拖动标签可调整布局</span>
          <Tooltip content="恢复默认布局" placement="bottom" compact>
            <Button variant="minimal" size="small" icon="reset" aria-label="恢复默认布局" onClick={resetLayout} data-testid="create-reset-layout" />
          </Tooltip>
          {/* The primary action and its price stay in view whatever the panes' arrangement (the preview may be closed or behind a tab). */}
          <Tooltip content={MSG.estimateSettles} placement="bottom" compact>
            <span className="cr-head-price" data-testid="create-head-price">
              {channel && seconds > 0 ? <>约 <strong>{estimatePrice(seconds, channel.credits)}</strong> 积分</> : channel ? `${channel.credits} 积分/秒` : ''}
            </span>
          </Tooltip>
          <Button intent="primary" icon="video" text="合成视频" loading={submitting} onClick={submit} className="cr-head-submit" data-testid="create-submit" />
        </header>
        <div className="cr-dock" ref={hostRef}>
          <DockviewReact
            className="cr-dockview"
            components={screen.pictureType ? pictureComponents : avatarComponents}
            defaultTabComponent={PaneTab}
            onReady={onReady}
            theme={theme === 'dark' ? themeDark : themeLight}
            defaultRenderer="always"
            disableFloatingGroups
            watermarkComponent={NoPanes}
          />
        </div>
      </div>
      <ChannelDialog
        isOpen={dialogOpen}
        channels={channels.list}
        tips={channels.tips}
        loading={channels.loading}
        current={draft.channel}
        busy={submitting}
        seconds={seconds}
        onClose={() => !submitting && setDialogOpen(false)}
        onCreate={create}
        subtitles={draft.subtitles}
        onSubtitles={(subtitles) => update({ subtitles })}
        bgm={draft.bgm}
        onBgm={(bgm) => update({ bgm })}
      />
      <Alert
        isOpen={submitted}
        icon="tick-circle"
        intent="success"
        confirmButtonText="去作品页"
        cancelButtonText="继续创作"
        onConfirm={() => {
          setSubmitted(false);
          navigation.navigate(screen.works.path, screen.works.query);
        }}
        onCancel={() => setSubmitted(false)}
        className="cr-alert"
      >
        <p className="cr-alert-title">{MSG.submitSucceeded}</p>
        <p className="cr-alert-text">{MSG.submitAlert}</p>
      </Alert>
    </CreateContext.Provider>
  );
}
