import { useState } from 'react';
import { Button, NonIdealState, Spinner } from '@blueprintjs/core';
import { API, type Avatar } from '../../../contract';
import { ConfirmDelete, SearchBox, TOKENS, listPending, useDebounced, useDeletion, useService, useCloneOutcomes, useSubscription, type ApiClient, type Navigation, type PanelProps } from '../../../core';
import { AvatarsStateToken, type AvatarsState } from '../avatars-state';
import { AVATAR_CLONE_WORDS, cloneOutcome, createQuery, anyCloning } from '../avatar-view';
import { AddAvatarCard, AvatarCard } from './AvatarCard';
import { PlayerDialog } from './PlayerDialog';
import { useAvatars } from './use-avatars';
import './avatars.css';

/** /profile (part 1 §2 My avatars): name search, the card grid, delete, the player, and the way into the clone flow. */
export default function ProfilePanel({ closed$ }: PanelProps) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const navigation = useService<Navigation>(TOKENS.Navigation);
  const state = useService<AvatarsState>(AvatarsStateToken);
  const [search, setSearch] = useState('');
  const name = useDebounced(search, 300);
  const avatars = useAvatars(1, name, { poll: { stop$: closed$ } });
  const [playing, setPlaying] = useState<Avatar | null>(null);
  const deletion = useDeletion<Avatar>((avatar) => api.call(API.avatars.remove, { id: avatar.id }), avatars.reload);

  useSubscription(state.changed$, avatars.reload);

  // A clone ends while the page is open (the list polls while one clones): say so, ready or failed.
  useCloneOutcomes(avatars.list, cloneOutcome, AVATAR_CLONE_WORDS);

  const create = (avatar: Avatar) => {
    setPlaying(null);
    navigation.navigate('/create', createQuery(avatar));
  };


  const { list, loaded, loading } = avatars;
  const pending = listPending(avatars);
  const filtered = name.trim() !== '';
  const cloning = list.filter((a) => a.status === 1).length;

  return (
    <div className="av-page" data-testid="profile-panel">
      <div className="av-inner">
        <header className="av-head">
          <div className="av-head-text">
            <h2 className="av-title">我的数字人</h2>
            <p className="av-subtitle">
              {loaded ? `共 ${list.length} 个${cloning ? ` · ${cloning} 个克隆中` : ''}` : '克隆完成后即可用于视频创作'}
              {anyCloning(list) && <Spinner size={12} className="av-subtitle-spinner" />}
            </p>
          </div>
          <div className="av-head-actions">
            <SearchBox className="av-search" placeholder="搜索数字人名称" value={search} onChange={setSearch} testId="avatar-search" />
            <Button intent="primary" icon="new-person" text="克隆数字人" onClick={() => state.openClone()} data-testid="clone-open" />
          </div>
        </header>

        {pending ? pending : list.length === 0 && !filtered ? (
          <div className="card-center" data-testid="avatar-empty">
            <NonIdealState
              icon="new-person"
              title="还没有数字人"
              description="上传一段 5 秒到 30 分钟的真人出镜视频，即可克隆您的专属数字人，用于视频创作。"
              action={<Button intent="primary" size="large" icon="cloud-upload" text="上传视频，克隆数字人" onClick={() => state.openClone()} data-testid="empty-clone" />}
            />
          </div>
        ) : list.length === 0 ? (
          <div className="card-center" data-testid="avatar-no-match">
            <NonIdealState icon="search" title="没有找到数字人" description={`没有名称包含「${name.trim()}」的数字人`} action={<Button text="清除搜索" onClick={() => setSearch('')} />} />
          </div>
        ) : (
          <div className={`card-grid ${loading ? 'refreshing' : ''}`} data-testid="avatar-grid">
            {!filtered && <AddAvatarCard onClick={() => state.openClone()} />}
            {list.map((avatar) => (
              <AvatarCard key={avatar.id} avatar={avatar} canDelete onPlay={setPlaying} onCreate={create} onDelete={deletion.ask} />
            ))}
          </div>
        )}
      </div>

      <PlayerDialog avatar={playing} onClose={() => setPlaying(null)} onCreate={create} />
      <ConfirmDelete deletion={deletion} title={`删除数字人「${deletion.target?.name ?? ''}」？`} text="删除后不可恢复，已生成的作品不受影响。" classPrefix="av" />
    </div>
  );
}
