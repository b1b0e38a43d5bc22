import { useId, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { Button, Icon, ProgressBar, type IconName } from '@blueprintjs/core';
import type { UploadFileType } from './tokens';
import { formatSize } from './format';
import type { UploadBoxProps } from './upload-files';
import { useUploadQueue, type Item } from './use-upload-queue';

export type { UploadBoxProps, UploadedFile } from './upload-files';

const TYPE_ICON: Record<UploadFileType, IconName> = { video: 'video', voice: 'music', image: 'media' };

/**
 * The product's one upload control: drag and drop or click to choose, a client-side check, then the core
 * UploadService (signature → direct POST with progress → registration) under a progress overlay with a cancel
 * button. A failure closes the overlay and clears the chosen files; unmounting cancels what is in flight.
 */
export function UploadBox(props: UploadBoxProps) {
  const { type, accept, maxFiles = 1, title, hint, disabled, compact, className } = props;
  const { items, active, choose, cancel, remove } = useUploadQueue(props);
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const openChooser = () => {
    if (!disabled && !active) input.current?.click();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      openChooser();
    }
  };
  const onDragOver = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    if (disabled || active) {
      e.dataTransfer.dropEffect = 'none';
      return;
    }
    e.dataTransfer.dropEffect = 'copy';
    if (!dragging) setDragging(true);
  };
  const onDragLeave = (e: DragEvent<HTMLDivElement>) => {
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
  };
  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragging(false);
    if (!active) choose([...e.dataTransfer.files]);
  };

  const stateText = (item: Item) =>
    item.phase === 'waiting'
      ? '等待上传'
      : item.phase === 'reading'
        ? '读取文件…'
        : item.phase === 'uploading'
          ? `上传中 ${item.percent}%`
          : item.phase === 'processing'
            ? '校验中…'
            : '已上传';

  return (
    <div className={['upload-box', compact ? 'compact' : '', className ?? ''].filter(Boolean).join(' ')} data-testid={props['data-testid'] ?? 'upload-box'}>
      <style href="core-upload-box" precedence="medium">
        {UPLOAD_BOX_CSS}
      </style>
      <input
        ref={input}
        id={inputId}
        type="file"
        hidden
        accept={accept}
        multiple={maxFiles > 1}
        disabled={disabled}
        data-testid="upload-input"
        onChange={(e) => {
          const files = [...(e.currentTarget.files ?? [])];
          e.currentTarget.value = '';
          choose(files);
        }}
      />
      <div
        className={['upload-zone', dragging ? 'dragging' : '', disabled ? 'disabled' : '', active ? 'busy' : ''].filter(Boolean).join(' ')}
        role="button"
        tabIndex={disabled ? -1 : 0}
        aria-disabled={disabled || undefined}
        aria-label="上传文件"
        onClick={openChooser}
        onKeyDown={onKeyDown}
        onDragOver={onDragOver}
        onDragEnter={onDragOver}
        onDragLeave={onDragLeave}
        onDrop={onDrop}
        data-testid="upload-zone"
      >
        <span className="upload-zone-icon">
          <Icon icon="cloud-upload" size={compact ? 20 : 24} />
        </span>
        <span className="upload-zone-title">{title ?? <>将文件拖到此处，或 <em>点击上传</em></>}</span>
        {hint && <span className="upload-zone-hint">{hint}</span>}

        {active && (
          <div className="upload-overlay" onClick={(e) => e.stopPropagation()} role="status" aria-live="polite" data-testid="upload-progress" data-phase={active.phase}>
            <div className="upload-overlay-file">
              <Icon icon={TYPE_ICON[type]} />
              <span className="upload-overlay-name" title={active.file.name}>
                {active.file.name}
              </span>
              <span className="upload-overlay-size">{formatSize(active.file.size)}</span>
            </div>
            <ProgressBar intent="primary" value={active.phase === 'uploading' ? active.percent / 100 : active.phase === 'processing' ? 1 : undefined} animate stripes={active.phase !== 'uploading'} />
            <div className="upload-overlay-foot">
              <span className="upload-overlay-percent" data-testid="upload-percent">
                {stateText(active)}
              </span>
              <Button size="small" variant="outlined" icon="cross" text="取消上传" onClick={cancel} data-testid="upload-cancel" />
            </div>
          </div>
        )}
      </div>

      {items.some((i) => i !== active) && (
        <ul className="upload-list" data-testid="upload-list">
          {items.filter((i) => i !== active).map((item) => (
            <li key={item.key} className={`upload-item ${item.phase}`} data-testid="upload-item" data-phase={item.phase}>
              <Icon icon={item.phase === 'done' ? 'tick-circle' : TYPE_ICON[type]} className="upload-item-icon" />
              <span className="upload-item-name" title={item.file.name}>
                {item.file.name}
              </span>
              <span className="upload-item-state">{stateText(item)}</span>
              <Button size="small" variant="minimal" icon="cross" aria-label="移除" onClick={() => remove(item)} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const UPLOAD_BOX_CSS = `
.upload-box { min-width: 0; }
.upload-zone {
  position: relative; display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 8px;
  min-height: 168px; padding: 24px 16px; box-sizing: border-box; border: 1.5px dashed var(--border); border-radius: 10px;
  background: var(--bg); color: var(--text-muted); text-align: center; cursor: pointer; overflow: hidden;
  transition: border-color 0.15s ease, background-color 0.15s ease;
}
.upload-box.compact .upload-zone { min-height: 120px; padding: 16px 12px; gap: 6px; }
.upload-zone:hover, .upload-zone:focus-visible { border-color: var(--accent); outline: none; }
.upload-zone:focus-visible { box-shadow: 0 0 0 3px var(--accent-soft); }
.upload-zone.dragging { border-color: var(--accent); border-style: solid; background: var(--accent-soft); }
.upload-zone.disabled { cursor: not-allowed; opacity: 0.55; }
.upload-zone.disabled:hover { border-color: var(--border); }
.upload-zone.busy { cursor: default; }
.upload-zone-icon {
  display: flex; align-items: center; justify-content: center; width: 48px; height: 48px; border-radius: 50%;
  background: var(--accent-soft); color: var(--accent); transition: transform 0.15s ease;
}
.upload-zone-icon .bp6-icon { color: var(--accent); }
.upload-zone.dragging .upload-zone-icon { transform: translateY(-3px); }
.upload-box.compact .upload-zone-icon { width: 38px; height: 38px; }
.upload-zone-title { color: var(--text); font-size: 14px; line-height: 1.5; }
.upload-zone-title em { color: var(--accent); font-style: normal; font-weight: 600; }
.upload-zone-hint { font-size: 12px; line-height: 1.6; max-width: 420px; }
.upload-overlay {
  position: absolute; inset: 0; display: flex; flex-direction: column; justify-content: center; gap: 12px;
  padding: 16px 20px; background: var(--bg-elevated); cursor: default; text-align: left;
}
.upload-overlay-file { display: flex; align-items: center; gap: 8px; min-width: 0; color: var(--text); font-size: 13px; }
.upload-overlay-file .bp6-icon { color: var(--accent); flex-shrink: 0; }
.upload-overlay-name { flex: 1; min-width: 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; font-weight: 500; }
.upload-overlay-size { flex-shrink: 0; color: var(--text-muted); font-size: 12px; }
.upload-overlay-foot { display: flex; align-items: center; justify-content: space-between; gap: 8px; }
.upload-overlay-percent { font-size: 13px; color: var(--text-muted); font-variant-numeric: tabular-nums; }
.upload-list { list-style: none; margin: 8px 0 0; padding: 0; display: flex; flex-direction: column; gap: 4px; }
.upload-item {
  display: flex; align-items: center; gap: 8px; min-width: 0; padding: 4px 4px 4px 10px; border-radius: 6px;
  font-size: 13px; color: var(--text); background: var(--bg-elevated); border: 1px solid var(--border);
}
.upload-item-icon { flex-shrink: 0; color: var(--text-muted); }
.upload-item.done .upload-item-icon { color: #238551; }
.upload-item-name { flex: 1; min-width: 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.upload-item-state { flex-shrink: 0; font-size: 12px; color: var(--text-muted); font-variant-numeric: tabular-nums; }
.upload-item.done .upload-item-state { color: #238551; }
body.app-dark .upload-item.done .upload-item-icon, body.app-dark .upload-item.done .upload-item-state { color: #72ca9b; }
@media (prefers-reduced-motion: reduce) { .upload-zone, .upload-zone-icon { transition: none; } }
`;
