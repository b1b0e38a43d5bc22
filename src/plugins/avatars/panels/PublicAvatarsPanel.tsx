import { useState } from 'react';
import { Button, NonIdealState, Tab, Tabs } from '@blueprintjs/core';
import type { Avatar } from '../../../contract';
import { SearchBox, TOKENS, listPending, useDebounced, useService, type Navigation, type PanelProps } from '../../../core';
import { createQuery } from '../avatar-view';
import { AvatarCard } from './AvatarCard';
import { PlayerDialog } from './PlayerDialog';
import { useAvatars } from './use-avatars';
import './avatars.css';

type PublicTab = 'public' | 'bought';

/**
 * /gProfile (part 1 §2 Public avatars): 公共数字人 (name search, 播放 and 高级创作) and 用户购买数字人 (coming soon).
 * The spec's delete would hide a public avatar from this user's view; the contract has no such call, so the delete
 * action appears only on avatars the user owns (none of the public list), never as a pretend delete.
 */
export default function PublicAvatarsPanel(_props: PanelProps) {
  const navigation = useService<Navigation>(TOKENS.Navigation);
  const [tab, setTab] = useState<PublicTab>('public');
  const [search, setSearch] = useState('');
  const name = useDebounced(search, 300);
  const avatars = useAvatars(2, name);
  const [playing, setPlaying] = useState<Avatar | null>(null);

  const create = (avatar: Avatar) => {
    setPlaying(null);
    navigation.navigate('/create', createQuery(avatar));
  };
  const { list, loading } = avatars;
  const pending = listPending(avatars);

  return (
    <div className="av-page" data-testid="gprofile-panel">
      <div className="av-inner">
        <header className="av-head av-head-tabs">
          <Tabs id="gprofile-tabs" selectedTabId={tab} onChange={(id) => setTab(id === 'bought' ? 'bought' : 'public')} size="large" className="av-tabs">
            <Tab id="public" title="公共数字人" data-testid="tab-public" />
            <Tab id="bought" title="用户购买数字人" data-testid="tab-bought" />
          </Tabs>
          {tab === 'public' && (
            <div className="av-head-actions">
              <SearchBox className="av-search" placeholder="搜索数字人名称" value={search} onChange={setSearch} testId="avatar-search" />
            </div>
          )}
        </header>

        {tab === 'bought' ? (
          <div className="card-center" data-testid="bought-soon">
            <NonIdealState icon="shopping-cart" title="用户购买数字人 · 即将上线" description="购买的数字人将显示在这里，敬请期待。" />
          </div>
        ) : pending ? pending : list.length === 0 ? (
          <div className="card-center" data-testid="avatar-empty">
            {name.trim() ? (
              <NonIdealState icon="search" title="没有找到数字人" description={`没有名称包含「${name.trim()}」的公共数字人`} action={<Button text="清除搜索" onClick={() => setSearch('')} />} />
            ) : (
              <NonIdealState icon="people" title="暂无公共数字人" description="平台上架公共数字人后会显示在这里。" />
            )}
          </div>
        ) : (
          <div className={`card-grid ${loading ? 'refreshing' : ''}`} data-testid="avatar-grid">
            {list.map((avatar) => (
              <AvatarCard key={avatar.id} avatar={avatar} canDelete={false} onPlay={setPlaying} onCreate={create} />
            ))}
          </div>
        )}
      </div>
      <PlayerDialog avatar={playing} onClose={() => setPlaying(null)} onCreate={create} />
    </div>
  );
}
