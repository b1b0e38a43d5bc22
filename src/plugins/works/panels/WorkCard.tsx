import type { KeyboardEvent } from 'react';
import { AnchorButton, Button, Icon, Spinner } from '@blueprintjs/core';
import { MSG } from '../../../contract';
import { progressLine, waitingMessage, workPhase, type WorkItem } from '../works-view';
import { formatDateTime, formatDuration, metaLine } from '../../../core';

const PHASE_TAG = { done: '已完成', failed: '失败', waiting: '生成中' } as const;

/**
 * One work (part 1 §4): finished → play (the cover), download, rename, delete; failed → the reason and delete only;
 * in progress → the channel's waiting message (and, on a remote lip-sync engine, the place in line; there or on this machine, the progress). Works of the local channel say that it does not lip-sync.
 */
export function WorkCard({
  item,
  audio,
  onPlay,
  onDownload,
  onRename,
  onDelete,
}: {
  item: WorkItem;
  audio: boolean;
  onPlay: (item: WorkItem) => void;
  onDownload: (item: WorkItem) => void;
  onRename: (item: WorkItem) => void;
  onDelete: (item: WorkItem) => void;
}) {
  const phase = workPhase(item.status);
  const done = phase === 'done';
  const duration = formatDuration(item.duration);
  const remote = phase === 'waiting' ? progressLine(item) : '';
  const onKey = (e: KeyboardEvent) => {
    if (done && e.target === e.currentTarget && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      onPlay(item);
    }
  };

  return (
    <article className={`wk-card ${phase}`} data-testid="work-card" data-id={item.id} data-status={item.status}>
      <div
        className={`wk-cover ${audio ? 'audio' : ''}`}
        role={done ? 'button' : undefined}
        tabIndex={done ? 0 : undefined}
        aria-label={done ? `播放 ${item.name}` : undefined}
        onClick={done ? () => onPlay(item) : undefined}
        onKeyDown={onKey}
        data-testid="work-cover"
      >
        {item.cover && !audio ? (
          <>
            <img className="wk-cover-bg" src={item.cover} alt="" aria-hidden draggable={false} />
            <img className="wk-cover-img" src={item.cover} alt={item.name} loading="lazy" draggable={false} />
          </>
        ) : phase !== 'done' ? null : (
          <span className="wk-cover-placeholder">
            <Icon icon={audio ? 'music' : 'film'} size={32} />
          </span>
        )}
        <span className={`wk-tag ${phase}`}>{PHASE_TAG[phase]}</span>
        {done && duration && <span className="wk-duration">{duration}</span>}
        {done && (
          <span className="wk-play" aria-hidden>
            <Icon icon="play" size={22} />
          </span>
        )}
        {phase === 'waiting' && (
          <div className={`card-state waiting ${item.cover ? 'over-cover' : ''}`} data-testid="work-waiting">
            <Spinner size={26} />
            <span className="card-state-text">{waitingMessage(item.apiKey)}</span>
            {remote && (
              <span className="card-state-text" data-testid="work-remote-line">
                {remote}
              </span>
            )}
          </div>
        )}
        {phase === 'failed' && (
          <div className="card-state failed" data-testid="work-failed">
            <Icon icon="error" size={22} />
            <span className="card-state-title">生成失败</span>
            {item.reason && <span className="card-state-text">{item.reason}</span>}
          </div>
        )}
      </div>
      <div className="wk-body">
        <div className="wk-name" title={item.name} data-testid="work-name">
          {item.name}
        </div>
        <div className="wk-meta">
          {metaLine(item.apiName, formatDateTime(item.createTime))}
        </div>
        {item.apiKey === 'local' && (
          <div className="wk-note" title="内置本地引擎把数字人视频按音频时长循环或截取后配上声音，口型不随台词变化" data-testid="work-local-note">
            <Icon icon="info-sign" size={12} />
            {MSG.localEngineNote}
          </div>
        )}
        {done && item.reason && (
          <div className="wk-note" title={item.reason} data-testid="work-note">
            <Icon icon="info-sign" size={12} />
            {item.reason}
          </div>
        )}
        <div className="wk-actions">
          {done && (
            <>
              <Button size="small" variant="minimal" icon="download" text="下载" aria-label="下载" onClick={() => onDownload(item)} data-testid="work-download" />
              {item.srt && (
                <AnchorButton size="small" variant="minimal" icon="manually-entered-data" text="字幕" aria-label="下载字幕" href={item.srt} download={`${item.name}.srt`} data-testid="work-srt" />
              )}
              {item.kind === 'work' && <Button size="small" variant="minimal" icon="edit" text="重命名" aria-label="重命名" onClick={() => onRename(item)} data-testid="work-rename" />}
            </>
          )}
          {phase === 'waiting' ? (
            <span className="wk-actions-hint">完成后可播放和下载</span>
          ) : (
            <Button size="small" variant="minimal" intent="danger" icon="trash" text="删除" aria-label="删除" onClick={() => onDelete(item)} className="wk-delete" data-testid="work-delete" />
          )}
        </div>
      </div>
    </article>
  );
}
