/**
 * The queue behind an upload box: the chosen files, one sent at a time through the core UploadService (its duration
 * read first for video and audio), each one's phase and percent; the owner told of each finished file, each removed
 * one and whether the box is busy. A failure clears the chosen files; unmounting cancels what is in flight.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Subscription } from 'rxjs';
import { MSG } from '../contract';
import { ApiCallError } from './api-client';
import { UploadRefusedError } from './upload-service';
import { useService } from './react';
import { TOKENS, type Notifier, type UploadFileType, type UploadService } from './tokens';
import { acceptLabel, acceptsFile, readMediaDuration, uploadPercent, usableDuration, type UploadBoxProps, type UploadedFile } from './upload-files';

export type Phase = 'waiting' | 'reading' | 'uploading' | 'processing' | 'done';
export interface Item {
  key: number;
  file: File;
  phase: Phase;
  percent: number;
  result?: UploadedFile;
}

/** Longest media the registration call takes a duration for (LIMITS.video / LIMITS.audio maxSeconds). */
const MAX_SECONDS = 30 * 60;
const KIND: Record<UploadFileType, 'video' | 'audio' | null> = { video: 'video', voice: 'audio', image: null };
const TYPE_LABEL: Record<UploadFileType, string> = { video: '视频', voice: '音频', image: '图片' };
export const isActive = (phase: Phase) => phase === 'reading' || phase === 'uploading' || phase === 'processing';

const set = (key: number, change: Partial<Item>) => (list: Item[]) => list.map((i) => (i.key === key ? { ...i, ...change } : i));

interface Run {
  key: number;
  cancelled: boolean;
  sub?: Subscription;
}

export function useUploadQueue(props: UploadBoxProps) {
  const { type, maxFiles = 1, disabled } = props;
  const uploads = useService<UploadService>(TOKENS.UploadService);
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const [items, setItems] = useState<Item[]>([]);
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

  // Leaving or reloading would lose the transfer silently: the browser asks first while one runs.
  const uploading = Boolean(active);
  useEffect(() => {
    if (!uploading) return;
    const ask = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [uploading]);

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
      const problem = (file.size === 0 ? MSG.fileEmpty : null) || check?.(file) || (!acceptsFile(file.name, file.type, acc) ? MSG.uploadFormatInvalid(acceptLabel(acc) || TYPE_LABEL[type]) : null);
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

  return { items, active, choose, cancel, remove };
}
