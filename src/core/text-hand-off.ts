/** Handing a finished text on: to the clipboard, or to the /create editor (the copy chat's answers, extracted copy). */
import { CREATE_TEXT_KEY, MSG } from '../contract';
import type { Navigation, Notifier, Storage } from './tokens';

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
