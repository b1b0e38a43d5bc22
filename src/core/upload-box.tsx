import { useCallback, useEffect, useId, useRef, useState, type DragEvent, type KeyboardEvent, type ReactNode } from 'react';
import { Button, Icon, ProgressBar, type IconName } from '@blueprintjs/core';
import type { Subscription } from 'rxjs';
import { MSG } from '../contract';
import { ApiCallError } from './api-client';
import { UploadRefusedError } from './upload-service';
import { useService } from './react';
import { TOKENS, type Notifier, type UploadFileType, type UploadService } from './tokens';
import { formatSize } from './format';

/** What a finished upload hands to its owner. */
export interface UploadedFile {
  file_id: number;
  url: string;
  file: File;
  /** Seconds, read in the browser for video and audio (undefined when the browser cannot tell). */
  duration?: number;
}

export interface UploadBoxProps {
  /** The upload type of the signature and the registration. */
  type: UploadFileType;
  /** The file chooser's filter (`.mp4,.mov`, `audio/*`); also checked for dropped files. */
  accept?: string;
  /** How many files the box holds (default 1: a new choice replaces the old one). */
  maxFiles?: number;
  /** A client-side check before anything is sent: return the message to show, or nothing to go on. */
  check?: (file: File) => string | null | undefined;
  onUploaded: (result: UploadedFile) => void;
  /** A finished file was taken off the list. */
  onRemoved?: (result: UploadedFile) => void;
  /** True while a file is being read, sent or registered. */
  onBusyChange?: (busy: boolean) => void;
  /** The main line; default 将文件拖到此处，或 点击上传. */
  title?: ReactNode;
  /** Requirement lines under the title. */
  hint?: ReactNode;
  disabled?: boolean;
  /** A lower box (forms inside dialogs, phones). */
  compact?: boolean;
  className?: string;
  'data-testid'?: string;
}

type Phase = 'waiting' | 'reading' | 'uploading' | 'processing' | 'done';
interface Item {
  key: number;
  file: File;
  phase: Phase;
  percent: number;
  result?: UploadedFile;
}

// ---------------------------------------------------------------------------------------------------------------
// Pure helpers (unit-tested in upload-box.spec.ts)

/** Whether a file matches an `accept` list (extensions, `type/*`, `type/sub`); no list accepts everything. */
export function acceptsFile(name: string, mime: string, accept?: string): boolean {
  const tokens = (accept ?? '')
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);
  if (tokens.length === 0) return true;
  const lower = name.toLowerCase();
  const type = (mime || '').toLowerCase();
  return tokens.some((t) => {
    if (t.startsWith('.')) return lower.endsWith(t);
    if (t.endsWith('/*')) return type.startsWith(t.slice(0, -1));
    return type === t;
  });
}

/** `.mp4,.mov,video/mp4` → `MP4/MOV` (the extensions of an accept list, for messages). */
export function acceptLabel(accept?: string): string {
  const exts = (accept ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t.startsWith('.'))
    .map((t) => t.slice(1).toUpperCase());
  return [...new Set(exts)].join('/');
}

/** Whole percent of a transfer, 0..100. */
export function uploadPercent(loaded: number, total: number): number {
  if (!(total > 0) || !(loaded > 0)) return 0;
  return Math.max(0, Math.min(100, Math.floor((loaded / total) * 100)));
}

/** A duration the registration call accepts (finite, 0..max seconds, two decimals), else undefined. */
export function usableDuration(seconds: number | undefined, maxSeconds: number): number | undefined {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0 || seconds > maxSeconds) return undefined;
  return Math.round(seconds * 100) / 100;
}

/** Reads a media file's duration with a hidden, detached <video>/<audio> element; undefined when it cannot. */
export function readMediaDuration(file: Blob, kind: 'video' | 'audio', timeoutMs = 10_000): Promise<number | undefined> {
  if (typeof document === 'undefined' || typeof URL.createObjectURL !== 'function') return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const el = document.createElement(kind);
    const src = URL.createObjectURL(file);
    let settled = false;
    const finish = (value: number | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      el.removeAttribute('src');
      el.load();
      URL.revokeObjectURL(src);
      resolve(value);
    };
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    el.preload = 'metadata';
    el.muted = true;
    el.onloadedmetadata = () => finish(Number.isFinite(el.duration) ? el.duration : undefined);
    el.onerror = () => finish(undefined);
    el.src = src;
  });
}

// ---------------------------------------------------------------------------------------------------------------

/** Longest media the registration call takes a duration for (LIMITS.video / LIMITS.audio maxSeconds). */
const MAX_SECONDS = 30 * 60;
const KIND: Record<UploadFileType, 'video' | 'audio' | null> = { video: 'video', voice: 'audio', image: null };
const TYPE_ICON: Record<UploadFileType, IconName> = { video: 'video', voice: 'music', image: 'media' };
const TYPE_LABEL: Record<UploadFileType, string> = { video: '视频', voice: '音频', image: '图片' };
const isActive = (phase: Phase) => phase === 'reading' || phase === 'uploading' || phase === 'processing';

const set = (key: number, change: Partial<Item>) => (list: Item[]) => list.map((i) => (i.key === key ? { ...i, ...change } : i));

interface Run {
  key: number;
  cancelled: boolean;
  sub?: Subscription;
}

/**
 * The product's one upload control: drag and drop or click to choose, a client-side check, then the core
 * UploadService (signature → direct POST with progress → registration) under a progress overlay with a cancel
 * button. A failure closes the overlay and clears the chosen files; unmounting cancels what is in flight.
 */
export function UploadBox(props: UploadBoxProps) {
  const { type, accept, maxFiles = 1, title, hint, disabled, compact, className } = props;
  const uploads = useService<UploadService>(TOKENS.UploadService);
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [items, setItems] = useState<Item[]>([]);
  const [dragging, setDragging] = useState(false);
  const itemsRef = useRef<Item[]>([]);
  const running = useRef<Run | null>(null);
  const seq = useRef(0);
  const mounted = useRef(true);
  const reportedBusy = useRef(false);
  // The owner's latest callbacks and settings: a long upload reports to the current render.
  const latest = useRef(props);
  latest.current = props;

  const commit = useCallback((change: (list: Item[]) => Item[]) => {
    itemsRef.current = change(itemsRef.current);
    if (mounted.current) setItems(itemsRef.current);
  }, []);
  const pump = useCallback(() => {
    if (running.current || !mounted.current) return;
    const item = itemsRef.current.find((i) => i.phase === 'waiting');
    if (!item) return;
    const run: Run = { key: item.key, cancelled: false };
    running.current = run;
    const fileType = latest.current.type;
    commit(set(item.key, { phase: 'reading', percent: 0 }));
    const kind = KIND[fileType];
    void (kind ? readMediaDuration(item.file, kind) : Promise.resolve(undefined)).then((seconds) => {
      if (run.cancelled) return;
      const duration = usableDuration(seconds, MAX_SECONDS);
      let result: UploadedFile | undefined;
      commit(set(item.key, { phase: 'uploading' }));
      run.sub = uploads.upload(item.file, fileType, duration === undefined ? {} : { duration }).subscribe({
        next: (p) => {
          if (p.done) {
            result = { file_id: p.done.file_id, url: p.done.url, file: item.file, duration };
            commit(set(item.key, { phase: 'done', percent: 100, result }));
            return;
          }
          const percent = uploadPercent(p.loaded, p.total);
          commit(set(item.key, { percent, phase: percent >= 100 ? 'processing' : 'uploading' }));
        },
        complete: () => {
          running.current = null;
          if (result) {
            notifier.success(MSG.uploadSucceeded);
            latest.current.onUploaded(result);
          }
          pump();
        },
        error: (err: unknown) => {
          running.current = null;
          // A refused signature or registration was already toasted with the server's words by the API client;
          // a refused transfer carries the storage host's (or the bucket's) meaning.
          if (err instanceof UploadRefusedError) notifier.error(err.message);
          else if (!(err instanceof ApiCallError)) notifier.error(MSG.uploadFailed);
          // The overlay closes and the chosen files are cleared (part 1 §8).
          commit(() => []);
        },
      });
    });
  }, [commit, notifier, uploads]);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      // The owner may unmount the box in the same render that finished the upload: it is not busy any more.
      if (reportedBusy.current) latest.current.onBusyChange?.(false);
      const run = running.current;
      if (run) {
        run.cancelled = true;
        run.sub?.unsubscribe();
        running.current = null;
      }
    };
  }, []);

  const active = items.find((i) => isActive(i.phase));
  const busy = items.some((i) => i.phase !== 'done');
  useEffect(() => {
    if (busy === reportedBusy.current) return;
    reportedBusy.current = busy;
    latest.current.onBusyChange?.(busy);
  }, [busy]);

  const choose = (chosen: File[]) => {
    if (disabled || chosen.length === 0) return;
    const { check, accept: acc } = latest.current;
    const replacing = maxFiles === 1;
    const kept = replacing ? [] : itemsRef.current;
    if (chosen.length + kept.length > maxFiles) {
      notifier.warn(MSG.uploadTooMany(maxFiles));
      return;
    }
    for (const file of chosen) {
      const problem = check?.(file) || (!acceptsFile(file.name, file.type, acc) ? MSG.uploadFormatInvalid(acceptLabel(acc) || TYPE_LABEL[type]) : null);
      if (problem) {
        notifier.warn(problem);
        return;
      }
    }
    if (replacing) {
      for (const old of itemsRef.current) if (old.result) latest.current.onRemoved?.(old.result);
    }
    const added = chosen.map((file): Item => ({ key: ++seq.current, file, phase: 'waiting', percent: 0 }));
    commit(() => [...kept, ...added]);
    pump();
  };

  const cancel = () => {
    const run = running.current;
    if (!run) return;
    run.cancelled = true;
    run.sub?.unsubscribe();
    running.current = null;
    commit((list) => list.filter((i) => i.key !== run.key));
    notifier.info(MSG.uploadCancelled);
    pump();
  };

  const remove = (item: Item) => {
    if (isActive(item.phase)) return cancel();
    commit((list) => list.filter((i) => i.key !== item.key));
    if (item.result) latest.current.onRemoved?.(item.result);
  };

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
