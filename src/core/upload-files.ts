/** What an upload box is told and hands back, and the pure checks on the files it takes (upload-box.spec.tsx). */
import type { ReactNode } from 'react';
import type { UploadFileType } from './tokens';

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
