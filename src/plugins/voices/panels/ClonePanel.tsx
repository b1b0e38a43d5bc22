import { useState } from 'react';
import { Alert, Button, NonIdealState, Spinner, Tab, Tabs } from '@blueprintjs/core';
import { API, LIMITS, MSG, type Voice } from '../../../contract';
import { ConfirmDelete, RenameDialog, SearchBox, useAction, useAudioPlayer, useCloneOutcomes, useDebounced, useDeletion, useRenaming, useService, useSubscription, TIMINGS, useScreenServices, type PanelProps } from '../../../core';
import { VoicesStateToken, type VoicesState } from '../voices-state';
import { CLONE_ROUTE } from '../voices-commands';
import { VOICE_CLONE_WORDS, cloneOutcome, modifyRefusal, tabFromQuery, type VoiceTab } from '../voice-view';
import { PreviewDialog } from './PreviewDialog';
import { AddVoiceCard, VoiceCard, waveKeyOf, type VoiceCardHandlers } from './VoiceCard';
import { useVoices, type VoiceList } from './use-voices';
import './voices.css';

/**
 * /clone?id=1|2 (part 1 §2 Voice clone): 我的声音 (count, name search, cards with the status line and the popover:
 * rename, modify, confirm, delete; polled every 10 s while any voice trains) and 公共声音 (play only).
 */
export default function ClonePanel({ query, closed$ }: PanelProps) {
  const { api, navigation, notifier } = useScreenServices();
  const state = useService<VoicesState>(VoicesStateToken);
  const tab = tabFromQuery(query);
  const [search, setSearch] = useState('');
  const name = useDebounced(search, 300);
  const mine = useVoices(1, tab === 1 ? name : '', { poll: { stop$: closed$ } });
  // A clone ends while the page is open (the list polls while one trains): say so, ready or failed.
  useCloneOutcomes(mine.list, cloneOutcome, VOICE_CLONE_WORDS);
  const publicVoices = useVoices(2, tab === 2 ? name : '', { enabled: tab === 2 });
  const player = useAudioPlayer((m) => notifier.error(m), { preload: 'none' });

  const [previewing, setPreviewing] = useState<Voice | null>(null);
  const [confirming, setConfirming] = useState<Voice | null>(null);
  const { busy, run } = useAction();
  const deletion = useDeletion<Voice>((voice) => api.call(API.voices.remove, { id: voice.id }), (voice) => {
    player.stop(waveKeyOf(voice));
    reload();
  });

  const { reload } = mine;
  useSubscription(state.changed$, reload);
  const renaming = useRenaming<Voice>((voice, name) => api.call(API.voices.rename, { id: voice.id, name }), reload);

  const select = (next: VoiceTab) => {
    if (next === tab) return;
    setSearch('');
    player.stop();
    navigation.navigate(CLONE_ROUTE, { id: next }, { replace: true });
  };

  const confirmVoice = async () => {
    const target = confirming;
    if (!target) return;
    await run(() => api.call(API.voices.confirm, { voice_id: target.id }), {
      success: MSG.confirmSucceeded,
      then: () => {
        setConfirming(null);
        reload();
      },
    });
  };
  const cancelConfirm = () => {
    setConfirming(null);
    notifier.info(MSG.confirmCancelled);
  };

  const modify = (voice: Voice) => {
    const refusal = modifyRefusal(voice);
    if (refusal) {
      notifier.warn(refusal);
      return;
    }
    player.stop();
    state.openModify(voice);
  };

  const handlers: VoiceCardHandlers = {
    onPlay: (voice) => player.toggle(waveKeyOf(voice), voice.url),
    onSeek: (voice, fraction) => (player.state.key === waveKeyOf(voice) ? player.seek(fraction) : player.toggle(waveKeyOf(voice), voice.url)),
    onPreview: (voice) => {
      player.stop();
      setPreviewing(voice);
    },
    onRename: renaming.ask,
    onModify: modify,
    onConfirm: setConfirming,
    onDelete: deletion.ask,
  };

  const shown: VoiceList = tab === 1 ? mine : publicVoices;
  const filtered = name.trim() !== '';

  const summary =
    tab === 2
      ? publicVoices.loaded
        ? `${filtered ? '找到' : '共'} ${publicVoices.list.length} 个公共声音，点击播放试听`
        : '平台提供的公共声音'
      : mine.loaded
        ? `${filtered ? '找到' : '共'} ${mine.list.length} 个声音${mine.generate > 0 ? ` · ${mine.generate} 个训练中，每 ${TIMINGS.voicePollMs / 1000} 秒自动刷新` : ''}`
        : '克隆完成后即可用于视频配音';

  return (
    <div className="vc-page" data-testid="clone-panel">
      <div className="vc-inner">
        <header className="vc-head">
          <Tabs id="clone-tabs" selectedTabId={tab} onChange={(id) => select(id === 2 ? 2 : 1)} size="large" className="vc-tabs">
            <Tab
              id={1}
              title={
                <>
                  我的声音
                  {mine.loaded && !filtered && <span className="vc-tab-count" data-testid="voice-count">{mine.list.length}</span>}
                </>
              }
              data-testid="voice-tab-mine"
            />
            <Tab id={2} title="公共声音" data-testid="voice-tab-public" />
          </Tabs>
          <div className="vc-head-actions">
            <SearchBox className="vc-search" placeholder="搜索声音名称" value={search} onChange={setSearch} testId="voice-search" />
            {tab === 1 && <Button intent="primary" icon="volume-up" text="克隆声音" onClick={() => state.openClone()} data-testid="voice-clone-open" />}
          </div>
        </header>
        <p className="vc-summary" data-testid="voice-summary" data-polling={mine.polling}>
          {summary}
          {tab === 1 && mine.generate > 0 && <Spinner size={12} className="vc-summary-spinner" />}
        </p>

        {!shown.loaded && shown.loading ? (
          <div className="vc-center">
            <Spinner size={28} />
          </div>
        ) : shown.error && !shown.loaded ? (
          <div className="vc-center">
            <NonIdealState icon="error" title="加载失败" description={shown.error} action={<Button icon="refresh" text="重新加载" onClick={shown.reload} />} />
          </div>
        ) : shown.list.length === 0 && filtered ? (
          <div className="vc-center" data-testid="voice-no-match">
            <NonIdealState icon="search" title="没有找到声音" description={`没有名称包含「${name.trim()}」的声音`} action={<Button text="清除搜索" onClick={() => setSearch('')} />} />
          </div>
        ) : shown.list.length === 0 && tab === 2 ? (
          <div className="vc-center" data-testid="voice-empty">
            <NonIdealState icon="people" title="暂无公共声音" description="平台上架公共声音后会显示在这里。" />
          </div>
        ) : shown.list.length === 0 ? (
          <div className="vc-center" data-testid="voice-empty">
            <NonIdealState
              icon="volume-up"
              title="还没有克隆的声音"
              description={`上传一段 ${LIMITS.audio.minSeconds} 秒到 ${LIMITS.audio.maxSeconds / 60} 分钟的清晰人声录音，即可克隆专属声音，用于视频配音。`}
              action={<Button intent="primary" size="large" icon="cloud-upload" text="上传音频，克隆声音" onClick={() => state.openClone()} data-testid="voice-empty-clone" />}
            />
          </div>
        ) : (
          <div className={`vc-grid ${shown.loading ? 'refreshing' : ''}`} data-testid="voice-grid">
            {tab === 1 && !filtered && <AddVoiceCard onClick={() => state.openClone()} />}
            {shown.list.map((voice) => {
              const active = player.state.key === waveKeyOf(voice);
              return (
                <VoiceCard
                  key={voice.id}
                  voice={voice}
                  own={tab === 1}
                  active={active}
                  playing={active && player.state.playing}
                  progress={active ? player.progress : 0}
                  handlers={handlers}
                />
              );
            })}
          </div>
        )}
      </div>

      <audio {...player.bind} hidden data-testid="voice-audio" />
      <PreviewDialog voice={previewing} own={tab === 1} onClose={() => setPreviewing(null)} onSaved={() => mine.reload()} />
      <RenameDialog
        {...renaming.dialog}
        title="重命名声音"
        label="声音名称"
        inputId="voice-rename-input"
        className="vc-dialog"
        inputTestId="voice-rename-input"
        saveTestId="voice-rename-save"
      />
      <ConfirmDelete
        deletion={deletion}
        title={`删除声音「${deletion.target?.name ?? ''}」？`}
        text="删除后不可恢复，已生成的作品不受影响。"
        classPrefix="vc"
      />
      <Alert
        isOpen={confirming !== null}
        icon="endorsed"
        intent="primary"
        cancelButtonText="取消"
        confirmButtonText="确认"
        loading={busy}
        onCancel={cancelConfirm}
        onConfirm={() => void confirmVoice()}
        className="vc-alert"
      >
        <p className="vc-alert-title">确认声音「{confirming?.name ?? ''}」？</p>
        <p className="vc-alert-text">确认后声音固定，不能再修改；请先试听，满意后再确认。</p>
      </Alert>
    </div>
  );
}
