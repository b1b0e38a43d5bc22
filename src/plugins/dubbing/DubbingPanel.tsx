/**
 * /store/dubbing/index, the dubbing studio: one voice for a whole text or a dialogue of up to five roles, each line
 * previewed; the gap, background music and the price on the right; then the dub being listened to (waveform with a
 * flag per line, play from a line, downloads, save to the material library, 用于创作) and the history. On a phone
 * everything stacks and the price and 生成配音 stay at the bottom.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Button, InputGroup } from '@blueprintjs/core';
import { API, LIMITS, type DubbingRecord } from '../../contract';
import {
  ConfirmDelete, PageHeader, RenameDialog, Segments, TOKENS, VoicePicker, useAction, useAudioPlayer, useDeletion, useObservable, useRenaming, usePanelHost,
  useService, type ApiClient, type Notifier, type PanelProps,
} from '../../core';
import { dubChars, dubPrice, estimateLine, pasteDialogue, previewKey, spokenLines, type DubMode } from './dub-draft';
import { DubbingStateToken, type DubbingState } from './dubbing-state';
import { RoleCards } from './RoleCards';
import { DialogueLines, type LineView } from './DialogueLines';
import { SingleScript } from './SingleScript';
import { DubSettings } from './DubSettings';
import { DubResult, dubKey } from './DubResult';
import { DubHistory } from './DubHistory';
import { PasteDialog } from './PasteDialog';
import { useDubEditing } from './use-dub-editing';
import { useDubHistory } from './use-dub-history';
import './dubbing.css';

const MUSIC_KEY = 'dub-music';

export default function DubbingPanel(_props: PanelProps) {
  const state = useService<DubbingState>(DubbingStateToken);
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const draft = useObservable(state.draft$, state.draft);
  const previewing = useObservable(state.previewing$, state.previewing$.value);
  const submitting = useObservable(state.submitting$, state.submitting$.value);
  const flagged = useObservable(state.flagged$, state.flagged$.value);
  const unsaved = useObservable(state.unsaved$, false);
  const host = usePanelHost();
  useEffect(() => host.setDirty(unsaved), [host, unsaved]);
  const player = useAudioPlayer((m) => notifier.error(m));
  const [picker, setPicker] = useState<string | null>(null);
  const [pasting, setPasting] = useState(false);
  const saving = useAction();

  const editing = useDubEditing(state);
  const history = useDubHistory(state);
  // The save-to-library button's action: its spinner covers a rename too.
  const renaming = useRenaming<DubbingRecord>((r, name) => api.call(API.dubbing.rename, { id: r.id, name }), history.reload, saving);
  useEffect(() => {
    const sub = state.play$.subscribe(({ key, url }) => player.play(key, url));
    return () => sub.unsubscribe();
  }, [state, player.play]);

  const spoken = useMemo(() => spokenLines(draft), [draft]);
  const dialogue = draft.mode === 'dialogue';
  const prices = history.prices;
  const credits = dubPrice(draft, prices);
  const seconds = spoken.reduce((n, l, i) => n + estimateLine(l) + l.pauseAfter + (i < spoken.length - 1 ? draft.gap : 0), 0);
  const isPlaying = (key: string) => player.state.key === key && player.state.playing;
  const heard = player.state.playing ? player.state.key : null;
  const views: LineView[] = useMemo(
    () =>
      dialogue
        ? spoken.map((l, i) => {
            const key = previewKey(l);
            const tone = Math.max(0, draft.roles.indexOf(l.role)) % 5;
            return { line: draft.lines[i]!, role: l.role, tone, previewing: previewing.has(key), previewReady: Boolean(state.previewOf(key)), playing: heard === key };
          })
        : [],
    [dialogue, spoken, draft, previewing, state, heard],
  );

  const deletion = useDeletion(
    (r: DubbingRecord) => api.call(API.dubbing.remove, { id: r.id }),
    (r) => {
      if (player.state.key === dubKey(r)) player.stop();
      history.reload();
    },
  );
  const selected = history.selected;
  const resultUrl = selected ? history.urlOf(selected) : '';
  const playFrom = useCallback(
    (seconds: number) => {
      if (!selected) return;
      if (player.state.key !== dubKey(selected)) player.play(dubKey(selected), resultUrl);
      const el = player.element.current;
      if (!el) return;
      el.currentTime = seconds;
      if (el.paused) void el.play().catch(() => undefined);
    },
    [selected, resultUrl, player],
  );

  const paste = (text: string, replace: boolean) => {
    const result = pasteDialogue(state.draft, text, replace);
    if ('message' in result) {
      notifier.warn(result.message);
      return false;
    }
    state.update(() => result.draft);
    return true;
  };

  return (
    <div className="dub-page" data-testid="dubbing-panel">
      <div className="dub-inner">
        <PageHeader icon="microphone" title="配音" subtitle="输入文字，多种音色专业配音：一人朗读整段文字，或多人分角色对话；逐句生成字幕。">
          <div className="dub-head-tools">
            <InputGroup
              className="dub-name"
              leftIcon="edit"
              value={draft.name}
              maxLength={LIMITS.nameMaxChars}
              placeholder="配音名称（未命名）"
              onValueChange={(name) => state.update((d) => ({ ...d, name }))}
              aria-label="配音名称"
              data-testid="dub-name"
            />
            <Segments value={draft.mode} onChange={(v) => state.update((d) => ({ ...d, mode: v as DubMode }))} options={[['single', '单人配音'], ['dialogue', '多人对话']]} testId="dub-mode" />
          </div>
        </PageHeader>

        <div className="dub-layout">
          <div className="dub-main">
            <RoleCards roles={draft.roles} dialogue={dialogue} actions={editing.roleActions(setPicker)} />
            {dialogue ? (
              <>
                <DialogueLines views={views} roles={draft.roles} activeId={editing.activeId} flaggedId={flagged} actions={editing.lineActions} />
                <div className="dub-lines-foot">
                  <Button icon="add" text="添加一句" onClick={() => editing.lineActions.insertAfter(draft.lines.at(-1)?.id ?? '')} disabled={draft.lines.length >= LIMITS.dubbing.maxLines} data-testid="dub-line-add" />
                  <Button icon="clipboard" text="粘贴对白" onClick={() => setPasting(true)} data-testid="dub-paste" />
                  <span className="dub-lines-note">{draft.lines.length} / {LIMITS.dubbing.maxLines} 句</span>
                </div>
              </>
            ) : (
              <SingleScript
                text={draft.text}
                channelApi={draft.roles[0]?.voice?.api}
                lines={spoken}
                previewing={(l) => previewing.has(previewKey(l))}
                playing={(l) => isPlaying(previewKey(l))}
                onChange={(text) => state.update((d) => ({ ...d, text }))}
                onPreview={(id) => void state.preview(id)}
              />
            )}
          </div>
          <DubSettings
            gap={draft.gap}
            music={draft.music}
            musicVolume={draft.musicVolume}
            tracks={history.tracks}
            library={history.library}
            lines={spoken.length}
            chars={dubChars(draft)}
            roles={new Set(spoken.map((l) => l.role.id)).size}
            seconds={seconds}
            credits={credits}
            submitting={submitting}
            musicPlaying={isPlaying(MUSIC_KEY)}
            onGap={(gap) => state.update((d) => ({ ...d, gap }))}
            onMusic={(music) => state.update((d) => ({ ...d, music }))}
            onMusicVolume={(musicVolume) => state.update((d) => ({ ...d, musicVolume }))}
            onPlayMusic={() => draft.music && player.toggle(MUSIC_KEY, draft.music.url)}
            onGenerate={() => void state.generate()}
          />
        </div>

        {selected && (
          <DubResult
            record={selected}
            url={resultUrl}
            playing={player.state.key === dubKey(selected) ? player.state : null}
            saving={saving.busy}
            onToggle={() => player.toggle(dubKey(selected), resultUrl)}
            onPlayFrom={playFrom}
            onSeek={(f) => (player.state.key === dubKey(selected) ? player.seek(f) : playFrom(f * selected.duration))}
            onSave={() => void saving.run(() => state.saveToMaterial(selected))}
            onUse={() => void state.useForCreation(selected)}
          />
        )}
        <DubHistory {...history.view} actions={{ select: history.select, rename: renaming.ask, remove: deletion.ask }} />
      </div>

      <div className="dub-bar" data-testid="dub-bar">
        <span className="dub-bar-price">{credits > 0 ? `${credits} 积分` : '免费'}</span>
        <Button intent="primary" icon="microphone" text="生成配音" loading={submitting} onClick={() => void state.generate()} data-testid="dub-generate-bar" />
      </div>

      <VoicePicker
        isOpen={picker !== null}
        current={draft.roles.find((r) => r.id === picker)?.voice ?? null}
        player={player}
        onClose={() => setPicker(null)}
        onPick={(voice) => picker && editing.setVoice(picker, voice)}
        applyAllLabel={null}
      />
      <PasteDialog isOpen={pasting} hasLines={draft.lines.some((l) => l.text.trim())} onClose={() => setPasting(false)} onPaste={paste} />
      <RenameDialog
        {...renaming.dialog}
        title="重命名配音"
        label="配音名称"
        inputId="dub-rename"
        inputTestId="dub-rename-input"
        saveTestId="dub-rename-save"
      />
      <ConfirmDelete deletion={deletion} title="删除配音" text="删除后音频和字幕将无法恢复（已保存到素材库的副本不受影响），确定删除吗？" classPrefix="dub" />
      <audio {...player.bind} className="dub-audio-element" data-testid="dub-audio" />
    </div>
  );
}
