import { useEffect, useRef, useState } from 'react';
import { Button, Icon, NonIdealState } from '@blueprintjs/core';
import { API, LIMITS, type Avatar, type Material } from '../../../contract';
import { Segments, formatDuration, useRemoteList, useScreenServices } from '../../../core';
import { useCreate } from './create-draft';
import { avatarOf, avatarPickProblem, materialAvatarOf, type PickedAvatar } from './create-logic';
import { paneState } from './pane-state';

type Source = 'mine' | 'public' | 'material';
type Orientation = 1 | 2;

interface Card {
  key: string;
  picked: PickedAvatar;
  problem: string | null;
  portrait: boolean;
}


/** 数字人 (part 2 §2.2): mine, public (landscape / portrait) and the material library's videos. */
export function AvatarPane() {
  const { draft, update, query } = useCreate();
  const { notifier, navigation, api } = useScreenServices();
  const [source, setSource] = useState<Source>(query.material ? 'material' : 'mine');
  const [orientation, setOrientation] = useState<Orientation>(query.orientation ?? 2);

  // Each source's list loads while it is shown; coming back to it starts from a spinner.
  const fresh = { clearOnKeyChange: true };
  const mine = useRemoteList<Avatar>(
    source === 'mine' ? 'avatars-mine' : null,
    async (signal) => (await api.call(API.avatars.list, { source: 1, page: 1, limit: LIMITS.listLimitAll }, { silent: true, signal })).list,
    fresh,
  );
  const pub = useRemoteList<Avatar & { _o: Orientation }>(
    source === 'public' ? 'avatars-public' : null,
    async (signal) => {
      const r = await api.call(API.avatars.publicList, { source: 2, page: 1, limit: LIMITS.listLimitAll }, { silent: true, signal });
      return [...r.hlist.map((a) => ({ ...a, _o: 1 as const })), ...r.slist.map((a) => ({ ...a, _o: 2 as const }))];
    },
    fresh,
  );
  const material = useRemoteList<Material>(
    source === 'material' ? 'avatars-material' : null,
    async (signal) => (await api.call(API.material.list, { page: 1, limit: LIMITS.listLimitAll, type: 'video', source: 0 }, { silent: true, signal })).list,
    fresh,
  );
  const loaded = source === 'mine' ? mine : source === 'public' ? pub : material;

  const cards: Card[] =
    source === 'mine'
      ? mine.list.map((a) => ({ key: `a${a.id}`, picked: avatarOf(a), problem: avatarPickProblem(a), portrait: a.orientation !== 1 }))
      : source === 'public'
        ? pub.list.filter((a) => a._o === orientation).map((a) => ({ key: `p${a.id}`, picked: avatarOf(a), problem: avatarPickProblem(a), portrait: a._o === 2 }))
        : material.list.map((m) => ({ key: `m${m.id}`, picked: materialAvatarOf(m), problem: null, portrait: false }));

  // The address's avatar (/create?id=…&hs=…, source=3 for a material video): looked for in the user's list, then the
  // public one (in the hs orientation), then picked; a new id looks again.
  const applied = useRef<string | null>(null);
  const tried = useRef<Set<Source>>(new Set());
  const wanted = query.avatarId === null ? null : `${query.material ? 'm' : 'a'}${query.avatarId}`;
  useEffect(() => {
    if (wanted === null || applied.current === wanted || loaded.loading) return;
    const hit =
      source === 'material'
        ? material.list.find((m) => m.id === query.avatarId)
        : source === 'public'
          ? pub.list.find((a) => a.id === query.avatarId)
          : mine.list.find((a) => a.id === query.avatarId);
    if (hit) {
      applied.current = wanted;
      tried.current = new Set();
      if (source === 'public') setOrientation((hit as Avatar & { _o: Orientation })._o);
      update({ avatar: source === 'material' ? materialAvatarOf(hit as Material) : avatarOf(hit as Avatar) });
      return;
    }
    tried.current.add(source);
    const next: Source | undefined = query.material ? undefined : (['mine', 'public'] as const).find((s) => !tried.current.has(s));
    if (next) setSource(next);
    else applied.current = wanted;
  }, [wanted, loaded.loading, loaded.list, source, query.avatarId, query.material, mine.list, pub.list, material.list, update]);

  // Without an avatar in the address the pane opens on the first list that has items (mine, then public in either
  // orientation, then the material library), until the user picks a list. With none anywhere (a new account on a
  // new install) it comes back to 我的, which says how to make one.
  const settled = useRef(false);
  useEffect(() => {
    if (settled.current || wanted !== null || loaded.loading || !loaded.loaded) return;
    if (source === 'mine' && mine.list.length === 0) return setSource('public');
    if (source === 'public' && !pub.list.some((a) => a._o === orientation)) {
      const other: Orientation = orientation === 1 ? 2 : 1;
      if (pub.list.some((a) => a._o === other)) return setOrientation(other);
      return setSource('material');
    }
    settled.current = true;
    if (source === 'material' && !query.material && material.list.length === 0) setSource('mine');
  }, [wanted, source, orientation, loaded.loading, loaded.loaded, mine.list, pub.list, material.list, query.material]);
  const choose = (next: () => void) => {
    settled.current = true;
    next();
  };

  const pick = (card: Card) => {
    if (card.problem) notifier.warn(card.problem);
    else update({ avatar: card.picked });
  };
  const isPicked = (c: Card) => draft.avatar?.kind === c.picked.kind && draft.avatar.id === c.picked.id;

  return (
    <div className="cr-pane" data-pane="avatar" data-testid="create-avatars">
      <Segments value={source} onChange={(v) => choose(() => setSource(v as Source))} options={[['mine', '我的'], ['public', '公共'], ['material', '素材库']]} className="cr-segment" testId="create-avatar-source" />
      {source === 'public' && (
        <Segments value={String(orientation)} onChange={(v) => choose(() => setOrientation(v === '1' ? 1 : 2))} options={[['2', '竖屏'], ['1', '横屏']]} className="cr-segment cr-segment-sub" testId="create-avatar-orientation" />
      )}
      {paneState(
        { loading: loaded.loading, error: loaded.error, count: cards.length },
        <NonIdealState
          icon={source === 'material' ? 'folder-open' : 'person'}
          description={source === 'mine' ? '还没有数字人，可在「我的数字人」克隆' : source === 'public' ? '暂无公共数字人' : '素材库中还没有视频'}
          className="cr-empty"
          action={source === 'mine' ? <Button icon="add" text="克隆数字人" onClick={() => navigation.navigate('/profile')} data-testid="create-avatar-clone" /> : undefined}
        />,
      ) ?? (
        <div className={`cr-avatar-grid ${source === 'public' && orientation === 1 ? 'landscape' : ''}`}>
          {cards.map((c) => (
            <button
              type="button"
              key={c.key}
              className={`cr-avatar ${isPicked(c) ? 'picked' : ''} ${c.problem ? 'unusable' : ''}`}
              onClick={() => pick(c)}
              aria-pressed={isPicked(c)}
              title={c.picked.name}
            >
              <span className={`cr-avatar-cover ${c.portrait ? '' : 'wide'}`}>
                {c.picked.cover ? <img src={c.picked.cover} alt="" loading="lazy" /> : <Icon icon={source === 'material' ? 'video' : 'person'} size={20} />}
                {isPicked(c) && <Icon icon="tick-circle" className="cr-avatar-tick" />}
                {formatDuration(c.picked.duration) && <span className="cr-avatar-time">{formatDuration(c.picked.duration)}</span>}
              </span>
              <span className="cr-avatar-name">{c.picked.name}</span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
