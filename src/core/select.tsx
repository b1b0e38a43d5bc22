import type { ReactNode } from 'react';
import { HTMLSelect as BlueprintSelect, type HTMLSelectProps } from '@blueprintjs/core';
import type { MusicTrack } from '../contract';

/** Blueprint's native select with its caret titled in Chinese (its own says "Open dropdown"). */
export function HTMLSelect(props: HTMLSelectProps) {
  return <BlueprintSelect {...props} iconProps={{ title: '展开选项', ...props.iconProps }} />;
}

/** The options of a select of records (voices, tracks, personas …): each by its id, shown by its name unless `label` says more. */
export function RecordOptions<T extends { id: number | string; name: string }>({ items, label }: { items: readonly T[]; label?: (item: T) => ReactNode }) {
  return (
    <>
      {items.map((item) => (
        <option key={item.id} value={item.id}>
          {label ? label(item) : item.name}
        </option>
      ))}
    </>
  );
}

/** How a background-music picker names a track: the user's own marked 我的, a library track with its mood. */
export const musicTrackLabel = (t: Pick<MusicTrack, 'source' | 'name' | 'mood'>) => (t.source === 'mine' ? `我的 · ${t.name}` : t.mood ? `${t.name}（${t.mood}）` : t.name);
