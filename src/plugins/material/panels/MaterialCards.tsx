import type { KeyboardEvent, MouseEvent } from 'react';
import { Button, Icon } from '@blueprintjs/core';
import type { Material, MaterialType } from '../../../contract';
import { excerpt, originLabel } from '../material-view';
import { formatDate, formatDuration, metaLine } from '../../../core';

interface CardProps {
  item: Material;
  type: MaterialType;
  onPreview: (item: Material) => void;
  onRename: (item: Material) => void;
  onDelete: (item: Material) => void;
}

function Actions({ item, onRename, onDelete }: Pick<CardProps, 'item' | 'onRename' | 'onDelete'>) {
  const stop = (fn: () => void) => (e: MouseEvent) => {
    e.stopPropagation();
    fn();
  };
  return (
    <div className="mt-actions">
      <Button size="small" variant="minimal" icon="edit" aria-label="重命名" title="重命名" onClick={stop(() => onRename(item))} data-testid="material-rename" />
      <Button size="small" variant="minimal" intent="danger" icon="trash" aria-label="删除" title="删除" onClick={stop(() => onDelete(item))} data-testid="material-delete" />
    </div>
  );
}

const meta = (item: Material) => metaLine(originLabel(item), formatDate(item.create_time));
const activate = (fn: () => void) => (e: KeyboardEvent) => {
  if (e.target === e.currentTarget && (e.key === 'Enter' || e.key === ' ')) {
    e.preventDefault();
    fn();
  }
};

/** Video and image materials: a cover to click for the preview, the name, where it came from. */
export function MediaCard({ item, type, onPreview, onRename, onDelete }: CardProps) {
  const cover = type === 'image' ? item.cover || item.url : item.cover;
  const duration = formatDuration(item.duration);
  return (
    <article className={`mt-card ${type}`} data-testid="material-card" data-id={item.id}>
      <div className="mt-cover" role="button" tabIndex={0} aria-label={`预览 ${item.name}`} onClick={() => onPreview(item)} onKeyDown={activate(() => onPreview(item))} data-testid="material-open">
        {cover ? (
          <>
            <img className="mt-cover-bg" src={cover} alt="" aria-hidden draggable={false} />
            <img className="mt-cover-img" src={cover} alt={item.name} loading="lazy" draggable={false} />
          </>
        ) : type === 'video' && item.url ? (
          // No cover from the server: the video's own first frame.
          <video className="mt-cover-img" src={`${item.url}#t=0.1`} preload="metadata" muted playsInline tabIndex={-1} aria-hidden />
        ) : (
          <Icon icon={type === 'image' ? 'media' : 'video'} size={32} className="mt-cover-placeholder" />
        )}
        {type === 'video' && (
          <span className="mt-play" aria-hidden>
            <Icon icon="play" size={20} />
          </span>
        )}
        {duration && <span className="mt-duration">{duration}</span>}
      </div>
      <div className="mt-body mt-media-body">
        <div className="mt-name-row">
          <div className="mt-name" title={item.name}>
            {item.name}
          </div>
          <Actions item={item} onRename={onRename} onDelete={onDelete} />
        </div>
        <div className="mt-meta">{meta(item)}</div>
      </div>
    </article>
  );
}

/** An audio material: a row with a play button that opens the player. */
export function AudioRow({ item, onPreview, onRename, onDelete }: CardProps) {
  const duration = formatDuration(item.duration);
  return (
    <article className="mt-row" data-testid="material-card" data-id={item.id}>
      <button type="button" className="mt-row-play" aria-label={`播放 ${item.name}`} onClick={() => onPreview(item)} data-testid="material-open">
        <Icon icon="play" size={16} />
      </button>
      <div className="mt-text">
        <div className="mt-name" title={item.name}>
          {item.name}
        </div>
        <div className="mt-meta">{metaLine(duration, meta(item))}</div>
      </div>
      <Actions item={item} onRename={onRename} onDelete={onDelete} />
    </article>
  );
}

/** A text material: the first lines; click for the whole text. */
export function TextCard({ item, onPreview, onRename, onDelete }: CardProps) {
  return (
    <article className="mt-text-card" data-testid="material-card" data-id={item.id}>
      <div className="mt-text-main" role="button" tabIndex={0} onClick={() => onPreview(item)} onKeyDown={activate(() => onPreview(item))} data-testid="material-open">
        <div className="mt-text-head">
          <Icon icon="document" size={14} />
          <span className="mt-name" title={item.name}>
            {item.name}
          </span>
        </div>
        <p className="mt-excerpt">{excerpt(item.text, 140) || '（空白文本）'}</p>
      </div>
      <div className="mt-body">
        <div className="mt-meta">{meta(item)}</div>
        <Actions item={item} onRename={onRename} onDelete={onDelete} />
      </div>
    </article>
  );
}
