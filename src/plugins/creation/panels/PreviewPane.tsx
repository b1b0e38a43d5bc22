import { useEffect, useRef } from 'react';
import { Button, Icon } from '@blueprintjs/core';
import { MSG, countChars, pauseSeconds, scriptLimit } from '../../../contract';
import { useCreate } from './create-draft';
import { AUDITION_LABELS, LoopingVideo } from '../../../core';
import { cachedAudition, estimatePrice, isPublicVoice } from './create-logic';

/** 预览: the avatar (its video), the voice, the estimate and the chosen channel's price; the audition plays here. */
export function PreviewPane() {
  const { draft, channel, playToken, audition, auditioning, seconds, screen } = useCreate();
  const audioRef = useRef<HTMLAudioElement>(null);
  const cached = cachedAudition(draft);
  const audioMode = draft.mode === 'audio';
  const pauses = pauseSeconds(draft.text);

  // A finished (or cached) audition plays when asked.
  useEffect(() => {
    const el = audioRef.current;
    if (!playToken || !el || !cached) return;
    el.currentTime = 0;
    void el.play().catch(() => undefined);
    // Only a new token plays; the url is in place by then.
  }, [playToken]);

  return (
    <div className="cr-pane cr-preview" data-pane="preview" data-testid="create-preview">
      <div className="cr-stage">
        {draft.avatar?.url ? (
          <LoopingVideo key={draft.avatar.url} src={draft.avatar.url} poster={draft.avatar.cover || undefined} data-testid="create-stage-video" />
        ) : draft.avatar?.cover ? (
          <img src={draft.avatar.cover} alt={draft.avatar.name} />
        ) : (
          <span className="cr-stage-empty">
            <Icon icon={screen.pictureType === 2 ? 'heart' : 'person'} size={28} />
            选择{screen.pickerTitle}后在此预览
          </span>
        )}
      </div>
      <dl className="cr-summary">
        <dt>{screen.pickerTitle}</dt>
        <dd>{draft.avatar?.name ?? '未选择'}</dd>
        {audioMode ? (
          <>
            <dt>音频</dt>
            <dd>{draft.audio?.name ?? '未上传'}</dd>
          </>
        ) : (
          <>
            <dt>声音</dt>
            <dd data-testid="create-preview-voice">
              {draft.voice ? `${draft.voice.name}${isPublicVoice(draft.voice) ? ` · 语速 ${draft.params.rate.toFixed(1)}` : ''}` : '未选择'}
            </dd>
            <dt>台词</dt>
            <dd data-testid="create-preview-count">
              {countChars(draft.text)} / {scriptLimit(draft.voice?.api)} 字{pauses > 0 ? ` · 停顿 ${pauses} 秒` : ''}
            </dd>
          </>
        )}
        <dt>预计</dt>
        <dd data-testid="create-preview-estimate">{seconds > 0 ? `约 ${Math.round(seconds)} 秒` : '—'}</dd>
        <dt>通道</dt>
        <dd data-testid="create-preview-price">
          {channel ? `${channel.name} · ${channel.credits} 积分/秒${seconds > 0 ? ` · 约 ${estimatePrice(seconds, channel.credits)} 积分` : ''}` : '—'}
        </dd>
      </dl>
      {!audioMode && (
        <audio ref={audioRef} controls preload="auto" src={cached?.url || undefined} className="cr-listen-audio" data-testid="create-audition-audio" hidden={!cached} />
      )}
      <p className="cr-note" data-testid="create-estimate-note">
        <Icon icon="info-sign" size={12} /> {MSG.estimateSettles}。
      </p>
      <p className="cr-note" data-testid="create-channel-note">
        <Icon icon="info-sign" size={12} /> {screen.note(channel)}
      </p>
      <div className="cr-actions">
        {!audioMode && <Button icon="volume-up" text={cached ? AUDITION_LABELS.ready : AUDITION_LABELS.idle} fill loading={auditioning} onClick={audition} data-testid="create-audition" />}
      </div>
    </div>
  );
}
