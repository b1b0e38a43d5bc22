import type { KeyboardEvent, MouseEvent } from 'react';
import { Button, Icon, Spinner } from '@blueprintjs/core';
import type { Avatar } from '../../../contract';
import { avatarPhase, failureReason, orientationOf, PHASE_LABEL } from '../avatar-view';
import { formatDuration } from '../../../core';

/**
 * One avatar: cover_small and name; 克隆中 with a spinner, 克隆失败 with the reason, or (ready) hover actions
 * 播放 and 高级创作. The delete X shows only when the avatar may be deleted by this user.
 */
export function AvatarCard({
  avatar,
  canDelete,
  onPlay,
  onCreate,
  onDelete,
}: {
  avatar: Avatar;
  canDelete: boolean;
  onPlay: (avatar: Avatar) => void;
  onCreate: (avatar: Avatar) => void;
  onDelete?: (avatar: Avatar) => void;
}) {
  const phase = avatarPhase(avatar);
  const cover = avatar.cover_small || avatar.cover;
  const ready = phase === 'ready';
  const landscape = orientationOf(avatar) === 1;
  const duration = formatDuration(avatar.duration);
  const stop = (fn: () => void) => (e: MouseEvent) => {
    e.stopPropagation();
    fn();
  };
  const onKey = (e: KeyboardEvent) => {
    if (ready && e.target === e.currentTarget && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      onPlay(avatar);
    }
  };

  return (
    <article className={`av-card ${phase}`} data-testid="avatar-card" data-id={avatar.id} data-status={avatar.status ?? 3}>
      <div
        className="card-cover av-cover"
        role={ready ? 'button' : undefined}
        tabIndex={ready ? 0 : undefined}
        aria-label={ready ? `播放 ${avatar.name}` : undefined}
        onClick={ready ? () => onPlay(avatar) : undefined}
        onKeyDown={onKey}
      >
        {cover ? (
          <>
            <img className="card-cover-bg" src={cover} alt="" aria-hidden draggable={false} />
            <img className={`av-cover-img ${landscape ? 'landscape' : ''}`} src={cover} alt={avatar.name} loading="lazy" draggable={false} />
          </>
        ) : ready ? (
          <Icon icon="person" size={40} className="av-cover-placeholder" />
        ) : null}

        {ready && (
          <>
            <div className="av-badges">
              <span className="av-badge">{landscape ? '横屏' : '竖屏'}</span>
              {duration && <span className="av-badge">{duration}</span>}
            </div>
            <div className="av-actions">
              <Button icon="play" text="播放" className="av-action-play" onClick={stop(() => onPlay(avatar))} data-testid="avatar-play" />
              <Button intent="primary" icon="video" text="高级创作" onClick={stop(() => onCreate(avatar))} data-testid="avatar-create" />
            </div>
          </>
        )}
        {phase === 'cloning' && (
          <div className={`card-state waiting ${cover ? 'over-cover' : ''}`} data-testid="avatar-cloning">
            <Spinner size={28} />
            <span className="card-state-title">{PHASE_LABEL.cloning}</span>
            <span className="card-state-text">完成后自动刷新</span>
          </div>
        )}
        {phase === 'failed' && (
          <div className="card-state failed" data-testid="avatar-failed">
            <Icon icon="error" size={24} />
            <span className="card-state-title">{PHASE_LABEL.failed}</span>
            <span className="card-state-text">{failureReason(avatar)}</span>
          </div>
        )}
        {canDelete && onDelete && (
          <Button className="av-delete" size="small" icon="cross" aria-label="删除" title="删除" onClick={stop(() => onDelete(avatar))} data-testid="avatar-delete" />
        )}
      </div>
      <div className="av-name" title={avatar.name}>
        {avatar.name}
      </div>
    </article>
  );
}

/** The first cell of my avatars: start a clone. */
export function AddAvatarCard({ onClick }: { onClick: () => void }) {
  return (
    <article className="av-card av-add-card">
      <button type="button" className="card-cover av-cover av-add" onClick={onClick} data-testid="avatar-add">
        <span className="av-add-icon">
          <Icon icon="plus" size={22} />
        </span>
        <span className="av-add-title">克隆数字人</span>
        <span className="av-add-text">上传一段真人出镜视频</span>
      </button>
      <div className="av-name av-name-muted">定制专属数字人</div>
    </article>
  );
}
