import { beforeEach } from 'vitest';
import type { Notifier } from '../../src/core';

export interface Note {
  kind: keyof Notifier;
  message: string;
}

/** A notifier that writes down each message it is asked to show, emptied before each test of the calling suite. */
export function recordingNotifier(): { notes: Note[]; notifier: Notifier } {
  const notes: Note[] = [];
  const note = (kind: keyof Notifier) => (message: string) => void notes.push({ kind, message });
  beforeEach(() => {
    notes.length = 0;
  });
  return { notes, notifier: { success: note('success'), info: note('info'), warn: note('warn'), error: note('error') } };
}
