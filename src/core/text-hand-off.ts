/** Handing a finished text on: to the clipboard, to the /create editor (the copy chat's answers, extracted copy), or to one-click creation. */
import { CREATE_TEXT_KEY, MSG } from '../contract';
import type { Navigation, Notifier, Storage } from './tokens';

/** The script waiting for /cozeVideo; a draft's key (draft.…), so a logout forgets it with the drafts. */
const ONECLICK_TEXT_KEY = 'draft.oneclickText';

/** Copies `text` and says whether it worked. */
export async function copyText(s: { clipboard: (text: string) => Promise<void>; notifier: Pick<Notifier, 'success' | 'error'> }, text: string): Promise<void> {
  try {
    await s.clipboard(text);
    s.notifier.success(MSG.copySucceeded);
  } catch {
    s.notifier.error(MSG.copyFailed);
  }
}

/** 去创作: the text waits in storage for the /create editor, which opens on it. */
export function openInCreate(s: { storage: Pick<Storage, 'set'>; navigation: Pick<Navigation, 'navigate'> }, text: string): void {
  s.storage.set(CREATE_TEXT_KEY, text);
  s.navigation.navigate('/create', { type: 'fk' });
}

/** 一键成片: the text waits in storage for the one-click start screen, which takes it as its script. */
export function openInOneclick(s: { storage: Pick<Storage, 'set'>; navigation: Pick<Navigation, 'navigate'> }, text: string): void {
  s.storage.set(ONECLICK_TEXT_KEY, text);
  s.navigation.navigate('/cozeVideo');
}

/** The text handed to one-click creation, once (null when none waits). */
export function takeOneclickText(storage: Pick<Storage, 'get' | 'remove'>): string | null {
  const text = storage.get<string | null>(ONECLICK_TEXT_KEY, null);
  if (text !== null) storage.remove(ONECLICK_TEXT_KEY);
  return typeof text === 'string' && text ? text : null;
}
