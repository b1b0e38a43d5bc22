/**
 * What the clones (an avatar, a voice) share: the clone form's check, and the outcome. A clone takes a while after its
 * submit: while its page is open and its list polls, the user is told when one ends, ready or failed (issue 33: 克隆成功
 * used to be said at submit).
 */
import { useEffect, useRef } from 'react';
import { useService } from './react';
import { TOKENS, type Notifier } from './tokens';

export type CloneOutcome = 'pending' | 'ready' | 'failed';

/** The clone form's check with one kind of clone's messages: what the form lacks in the spec's order (name, then file), or null. */
export function cloneFormCheck(nameRequired: string, fileRequired: string): (name: string, fileId: number | null) => string | null {
  return (name, fileId) => {
    if (!name.trim()) return nameRequired;
    if (!fileId) return fileRequired;
    return null;
  };
}

/** A clone sample's limits (LIMITS.video, LIMITS.audio) as the requirements and the upload hint word them. */
export interface SampleWords {
  /** MP4 / MOV */
  formats: string;
  /** 500MB */
  size: string;
  /** 5 秒 ~ 30 分钟 */
  length: string;
  /** The upload box's line: MP4 / MOV，500MB 以内，时长 5 秒 ~ 30 分钟 */
  hint: string;
}

export function sampleWords(limit: { formats: readonly string[]; maxBytes: number; minSeconds: number; maxSeconds: number }): SampleWords {
  const formats = limit.formats.map((f) => f.toUpperCase()).join(' / ');
  const size = `${limit.maxBytes / 1024 / 1024}MB`;
  const length = `${limit.minSeconds} 秒 ~ ${limit.maxSeconds / 60} 分钟`;
  return { formats, size, length, hint: `${formats}，${size} 以内，时长 ${length}` };
}

/** The items that were pending in the last list and have ended in this one. */
export function endedSince<T extends { id: number }>(wasPending: ReadonlySet<number>, list: readonly T[], outcome: (item: T) => CloneOutcome): { ready: T[]; failed: T[] } {
  const ended = list.filter((item) => wasPending.has(item.id) && outcome(item) !== 'pending');
  return { ready: ended.filter((item) => outcome(item) === 'ready'), failed: ended.filter((item) => outcome(item) === 'failed') };
}

/** Toasts each item of `list` that ends while the page shows it (what was pending at the last answer and is not now). */
export function useCloneOutcomes<T extends { id: number; name: string }>(
  list: readonly T[],
  outcome: (item: T) => CloneOutcome,
  say: { ready: (name: string) => string; failed: (name: string) => string },
): void {
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const pending = useRef<ReadonlySet<number>>(new Set());
  const latest = useRef({ outcome, say });
  latest.current = { outcome, say };
  useEffect(() => {
    const { outcome: of, say: words } = latest.current;
    const { ready, failed } = endedSince(pending.current, list, of);
    for (const item of ready) notifier.success(words.ready(item.name));
    for (const item of failed) notifier.error(words.failed(item.name));
    pending.current = new Set(list.filter((item) => of(item) === 'pending').map((item) => item.id));
  }, [list, notifier]);
}
