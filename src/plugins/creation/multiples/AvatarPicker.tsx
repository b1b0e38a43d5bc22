import { useEffect, useState } from 'react';
import { Icon } from '@blueprintjs/core';
import { API, LIMITS, MSG, type Avatar } from '../../../contract';
import { PickerDialog, Segments, TOKENS, formatDuration, pickerPending, useRemote, useService, type ApiClient, type Notifier } from '../../../core';
import { sceneAvatarOf, type SceneAvatar } from './scenes';

type Source = 'public' | 'mine';
type Orientation = 1 | 2;

export interface AvatarPickerProps {
  isOpen: boolean;
  current: SceneAvatar | null;
  onClose: () => void;
  onPick: (avatar: SceneAvatar) => void;
}

/** 选择数字人 (part 2 §2.3): public (landscape or portrait) or mine; a ready avatar is picked and confirmed. */
export function AvatarPicker({ isOpen, current, onClose, onPick }: AvatarPickerProps) {
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const [source, setSource] = useState<Source>('public');
  const [orientation, setOrientation] = useState<Orientation>(2);
  const [picked, setPicked] = useState<Avatar | null>(null);

  useEffect(() => {
    if (!isOpen) return;
    setPicked(null);
    if (current) setOrientation(current.orientation);
  }, [isOpen, current]);

  const publicList = useRemote(isOpen && source === 'public' ? 'public' : null, (signal) =>
    api.call(API.avatars.publicList, { source: 2, page: 1, limit: LIMITS.listLimitAll }, { silent: true, signal }),
  );
  const mine = useRemote(isOpen && source === 'mine' ? 'mine' : null, async (signal) =>
    (await api.call(API.avatars.list, { source: 1, page: 1, limit: LIMITS.listLimitAll }, { silent: true, signal })).list,
  );
  const remote = source === 'public' ? publicList : mine;
  const list: Avatar[] = source === 'public' ? ((orientation === 1 ? publicList.value?.hlist : publicList.value?.slist) ?? []) : (mine.value ?? []);
  const pending = pickerPending(remote);
  const selectedId = picked?.id ?? current?.id ?? null;

  const choose = (avatar: Avatar) => {
    if (avatar.status === 1) notifier.warn(MSG.avatarNotReady);
    else if (avatar.status === 4) notifier.warn('该数字人克隆失败，请选择其他数字人');
    else setPicked(avatar);
  };
  const confirm = (avatar: Avatar | null = picked) => {
    if (avatar) onPick(sceneAvatarOf(avatar));
    onClose();
  };

  return (
    <PickerDialog
      isOpen={isOpen}
      title="选择数字人"
      icon="person"
      className="mu-avatar-dialog"
      testId="avatar-picker"
      dialogTestId="avatar-picker"
      bar={
        <>
          <Segments value={source} onChange={(v) => setSource(v as Source)} options={[['public', '公共数字人'], ['mine', '我的数字人']]} testId="avatar-source" />
          {source === 'public' && (
            <Segments value={String(orientation)} onChange={(v) => setOrientation(v === '1' ? 1 : 2)} options={[['2', '竖屏'], ['1', '横屏']]} testId="avatar-orientation" />
          )}
        </>
      }
      pending={pending}
      empty={list.length === 0 ? { icon: 'person', description: source === 'mine' ? '还没有数字人，可在「我的数字人」克隆' : orientation === 1 ? '暂无横屏公共数字人' : '暂无竖屏公共数字人' } : null}
      onClose={onClose}
      onConfirm={() => confirm()}
      confirmDisabled={!picked}
    >
      <div className={`mu-avatar-grid ${source === 'public' && orientation === 1 ? 'landscape' : ''}`} role="listbox" aria-label="数字人">
        {list.map((a) => {
          const selected = selectedId === a.id;
          const unavailable = a.status === 1 || a.status === 4;
          return (
            <button
              type="button"
              role="option"
              key={a.id}
              aria-selected={selected}
              className={`mu-avatar-option ${selected ? 'selected' : ''} ${unavailable ? 'unavailable' : ''}`}
              onClick={() => choose(a)}
              onDoubleClick={() => !unavailable && confirm(a)}
              title={a.name}
              data-testid="avatar-option"
              data-id={a.id}
            >
              <span className="mu-avatar-option-cover">
                {a.cover_small || a.cover ? <img src={a.cover_small || a.cover} alt="" loading="lazy" /> : <Icon icon="person" size={20} />}
                {selected && <Icon icon="tick-circle" className="mu-avatar-option-tick" />}
                {a.status === 1 && <span className="mu-avatar-option-badge">克隆中</span>}
                {a.status === 4 && <span className="mu-avatar-option-badge failed">克隆失败</span>}
                {a.duration ? <span className="mu-avatar-option-time">{formatDuration(a.duration)}</span> : null}
              </span>
              <span className="mu-avatar-option-name">{a.name}</span>
            </button>
          );
        })}
      </div>
    </PickerDialog>
  );
}
