import { Button, Icon, Menu, MenuDivider, MenuItem, Popover, Spinner, Tag } from '@blueprintjs/core';
import type { Voice } from '../../../contract';
import { Waveform, useWaveform } from '../../../core';
import { failureReason, isConfirmed, isNameLocked, statusLine, statusTone, voiceActions, voicePhase } from '../voice-view';

export interface VoiceCardHandlers {
  onPlay: (voice: Voice) => void;
  onSeek: (voice: Voice, fraction: number) => void;
  onPreview: (voice: Voice) => void;
  onRename?: (voice: Voice) => void;
  onModify?: (voice: Voice) => void;
  onConfirm?: (voice: Voice) => void;
  onDelete?: (voice: Voice) => void;
}

/** The waveform cache key of a voice (its URL is signed per listing). */
export const waveKeyOf = (voice: Pick<Voice, 'id' | 'file_id'>) => `voice:${voice.id}:${voice.file_id}`;

/**
 * One voice: play button, name, the channel name and the status line (训练中, 失败, 可修改N次, 不可修改). Once played,
 * its waveform shows the progress. Own voices have the popover (rename, modify, confirm, delete, each only when the
 * spec allows it) and a 确认 button while a generated voice is not yet confirmed.
 */
export function VoiceCard({
  voice,
  own,
  playing,
  active,
  progress,
  handlers,
}: {
  voice: Voice;
  own: boolean;
  /** This card's sample is playing. */
  playing: boolean;
  /** This card's sample is the loaded one (playing or paused). */
  active: boolean;
  progress: number;
  handlers: VoiceCardHandlers;
}) {
  const phase = voicePhase(voice);
  const tone = statusTone(voice);
  const actions = voiceActions(voice);
  const waveKey = waveKeyOf(voice);
  // Decoded the first time the card plays, then kept (module cache).
  const load = useWaveform(waveKey, voice.url, active);
  const channel = voice.voice_channel_name || voice.version_name || voice.api;
  const confirmed = isConfirmed(voice);

  const menu = (
    <Menu data-testid="voice-menu">
      <MenuItem icon="headset" text="试听与设置" disabled={!actions.play} onClick={() => handlers.onPreview(voice)} data-testid="voice-action-preview" />
      <MenuDivider />
      <MenuItem
        icon="edit"
        text="重命名"
        disabled={!actions.rename}
        label={isNameLocked(voice) ? '名称已锁定' : undefined}
        onClick={() => handlers.onRename?.(voice)}
        data-testid="voice-action-rename"
      />
      <MenuItem
        icon="refresh"
        text="修改"
        disabled={!actions.modify}
        label={phase === 'training' ? '训练中' : voice.remained_times > 0 ? `剩${voice.remained_times}次` : '不可修改'}
        onClick={() => handlers.onModify?.(voice)}
        data-testid="voice-action-modify"
      />
      <MenuItem icon="endorsed" text="确认声音" disabled={!actions.confirm} label={confirmed ? '已确认' : undefined} onClick={() => handlers.onConfirm?.(voice)} data-testid="voice-action-confirm" />
      <MenuDivider />
      <MenuItem
        icon="trash"
        text="删除"
        intent="danger"
        disabled={!actions.remove}
        label={actions.remove ? undefined : phase === 'training' ? '训练中' : '确认后可删'}
        onClick={() => handlers.onDelete?.(voice)}
        data-testid="voice-action-delete"
      />
    </Menu>
  );

  return (
    <article
      className={`vc-card ${phase} ${playing ? 'playing' : ''}`}
      data-testid="voice-card"
      data-id={voice.id}
      data-status={voice.generate_status}
      data-confirmed={confirmed ? 1 : 0}
    >
      <div className="vc-card-head">
        <button
          type="button"
          className="vc-card-play"
          disabled={!actions.play}
          aria-pressed={playing}
          aria-label={`${playing ? '暂停' : '播放'}：${voice.name}`}
          onClick={() => handlers.onPlay(voice)}
          data-testid="voice-play"
        >
          <Icon icon={playing ? 'pause' : 'play'} size={16} />
        </button>
        <div className="vc-card-text">
          <div className="vc-card-name" title={voice.name} data-testid="voice-name">
            {voice.name}
            {isNameLocked(voice) && <Icon icon="lock" size={11} className="vc-lock" title="名称已锁定" />}
          </div>
          <div className="vc-card-channel" title={channel} data-testid="voice-channel">
            <Icon icon="volume-up" size={11} />
            <span>{channel}</span>
          </div>
        </div>
        {own && (
          <Popover content={menu} placement="bottom-end" minimal={false}>
            <Button variant="minimal" size="small" icon="more" aria-label="更多操作" className="vc-card-more" data-testid="voice-more" />
          </Popover>
        )}
      </div>

      {active && <Waveform load={load} progress={progress} height={36} onSeek={(f) => handlers.onSeek(voice, f)} className="vc-card-wave" data-testid="voice-wave" />}

      {phase === 'training' && (
        <p className="vc-card-note" data-testid="voice-training-note">
          训练完成后自动刷新
        </p>
      )}
      {phase === 'failed' && (
        <p className="vc-card-reason" title={failureReason(voice)} data-testid="voice-reason">
          {failureReason(voice)}
        </p>
      )}

      <div className="vc-card-foot">
        <span className={`vc-status ${own || phase !== 'ready' ? tone : 'ready'}`} data-testid="voice-status">
          {phase === 'training' ? <Spinner size={12} /> : <span className="vc-status-dot" aria-hidden />}
          {own ? statusLine(voice) : phase === 'ready' ? '可使用' : statusLine(voice)}
        </span>
        {own && confirmed && (
          <Tag minimal round icon="endorsed" className="vc-confirmed" data-testid="voice-confirmed">
            已确认
          </Tag>
        )}
        {own && actions.confirm && (
          <Button size="small" intent="primary" variant="outlined" icon="endorsed" text="确认" onClick={() => handlers.onConfirm?.(voice)} data-testid="voice-confirm" />
        )}
      </div>
    </article>
  );
}

/** The first cell of my voices: start a clone. */
export function AddVoiceCard({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" className="vc-card vc-add" onClick={onClick} data-testid="voice-add">
      <span className="vc-add-icon">
        <Icon icon="plus" size={18} />
      </span>
      <span className="vc-add-text">
        <span className="vc-add-title">克隆声音</span>
        <span className="vc-add-hint">上传一段清晰的人声录音</span>
      </span>
    </button>
  );
}
