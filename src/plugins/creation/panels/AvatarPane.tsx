import { useEffect, useRef, useState } from 'react';
import { Icon, NonIdealState, SegmentedControl, Spinner } from '@blueprintjs/core';
import { API, LIMITS, MSG, type Avatar } from '../../../contract';
import { TOKENS, useService, type Notifier } from '../../../core';
import { useCreate } from './create-draft';
import { useList } from './use-list';

type Source = '1' | '2';

/** 数字人 (first version): the user's and the public avatars; a ready one is picked for the work. */
export function AvatarPane() {
  const { draft, update, requestedAvatarId } = useCreate();
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const [source, setSource] = useState<Source>('1');
  const { list, loading, error } = useList<Avatar>(`avatars-${source}`, async (api, signal) =>
    (await api.call(API.avatar.list, { source: Number(source) as 1 | 2, page: 1, limit: LIMITS.listLimitAll }, { silent: true, signal })).list,
  );

  // /create?id=… picks that avatar once it is in a list (the user's first, then the public one); a new id picks again.
  const applied = useRef<number | null>(null);
  const triedOther = useRef(false);
  useEffect(() => {
    if (requestedAvatarId === null || applied.current === requestedAvatarId || loading) return;
    const hit = list.find((a) => a.id === requestedAvatarId);
    if (hit) {
      applied.current = requestedAvatarId;
      triedOther.current = false;
      update({ avatar: hit });
    } else if (!triedOther.current) {
      triedOther.current = true;
      setSource((s) => (s === '1' ? '2' : '1'));
    }
  }, [list, loading, requestedAvatarId, update]);

  const pick = (avatar: Avatar) => {
    if (avatar.status === 1) notifier.warn(MSG.avatarNotReady);
    else if (avatar.status === 4) notifier.warn('该数字人克隆失败，请选择其他数字人');
    else update({ avatar });
  };

  return (
    <div className="cr-pane" data-testid="create-avatars">
      <SegmentedControl
        className="cr-segment"
        size="small"
        value={source}
        onValueChange={(v) => setSource(v as Source)}
        options={[
          { label: '我的数字人', value: '1' },
          { label: '公共数字人', value: '2' },
        ]}
      />
      {loading && list.length === 0 ? (
        <div className="cr-center">
          <Spinner size={20} />
        </div>
      ) : error ? (
        <NonIdealState icon="error" description={error} className="cr-empty" />
      ) : list.length === 0 ? (
        <NonIdealState icon="person" description={source === '1' ? '还没有数字人，可在「我的数字人」克隆' : '暂无公共数字人'} className="cr-empty" />
      ) : (
        <div className="cr-avatar-grid">
          {list.map((a) => (
            <button
              type="button"
              key={a.id}
              className={`cr-avatar ${draft.avatar?.id === a.id ? 'picked' : ''}`}
              onClick={() => pick(a)}
              aria-pressed={draft.avatar?.id === a.id}
              title={a.name}
            >
              <span className="cr-avatar-cover">
                {a.cover_small || a.cover ? <img src={a.cover_small || a.cover} alt="" loading="lazy" /> : <Icon icon="person" size={20} />}
                {draft.avatar?.id === a.id && <Icon icon="tick-circle" className="cr-avatar-tick" />}
              </span>
              <span className="cr-avatar-name">{a.name}</span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
