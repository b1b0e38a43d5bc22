import { Button, Icon } from '@blueprintjs/core';
import type { Avatar } from '../../../contract';
import type { Orientation } from '../home-state';

/** Public avatar cards (cover_small and name); hover (or, on touch screens, always) shows 播放 and 创建视频. */
export function AvatarGrid({
  avatars,
  orientation,
  onPlay,
  onCreate,
}: {
  avatars: readonly Avatar[];
  orientation: Orientation;
  onPlay: (avatar: Avatar) => void;
  onCreate: (avatar: Avatar) => void;
}) {
  if (avatars.length === 0) return null;
  return (
    <div className={`home-avatar-grid ${orientation === 1 ? 'landscape' : 'portrait'}`} data-testid="avatar-grid" data-orientation={orientation}>
      {avatars.map((avatar) => {
        const cover = avatar.cover_small || avatar.cover;
        return (
          <article key={avatar.id} className="home-avatar-card" data-testid="avatar-card" data-id={avatar.id}>
            <div className="home-avatar-cover">
              {cover ? <img src={cover} alt={avatar.name} loading="lazy" draggable={false} /> : <Icon icon="person" size={40} className="home-avatar-placeholder" />}
              <div className="home-avatar-actions">
                <Button icon="play" text="播放" onClick={() => onPlay(avatar)} data-testid="avatar-play" className="home-avatar-action-play" />
                <Button intent="primary" icon="video" text="创建视频" onClick={() => onCreate(avatar)} data-testid="avatar-create" />
              </div>
            </div>
            <div className="home-avatar-name" title={avatar.name}>
              {avatar.name}
            </div>
          </article>
        );
      })}
    </div>
  );
}
