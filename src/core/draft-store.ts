import { CREATE_TEXT_KEY } from '../contract';
import type { Storage } from './tokens';

/** Every draft's key starts here, so they can go together (forgetUserData). */
const DRAFT_PREFIX = 'draft.';
/** Whose drafts the browser holds (the username that last logged in). */
const DRAFTS_OWNER_KEY = 'draftsOwner';

/**
 * Forgets what the last user was writing in this browser: every draft and the text a tool handed to /create.
 * On logout, and when someone else logs in (a session that expired keeps them for its own user).
 */
export function forgetUserData(storage: Storage): void {
  storage.removeAll(DRAFT_PREFIX);
  storage.remove(CREATE_TEXT_KEY);
  storage.remove(DRAFTS_OWNER_KEY);
}

/** The drafts' owner while a guest (游客体验) writes them: registering keeps the guest's account, so its drafts too. */
export const GUEST_OWNER = '游客';

/** Before a login, registration or guest entry: a different user than the drafts' owner starts with none. */
export function claimUserData(storage: Storage, username: string): void {
  const owner = storage.get<string | null>(DRAFTS_OWNER_KEY, null);
  if (owner !== null && owner !== username && owner !== GUEST_OWNER) forgetUserData(storage);
  storage.set(DRAFTS_OWNER_KEY, username);
}

export interface DraftRules<T> {
  /** The stored value as a draft, or null when it is not one this version can use. */
  revive(stored: unknown): T | null;
  /** What is kept (without what goes stale, such as a finished audition). */
  keep(draft: T): unknown;
  /** Nothing worth keeping: the stored draft is removed instead. */
  isEmpty(draft: T): boolean;
}

/**
 * A creation screen's unfinished work in local storage (through the Storage service): read back when the screen
 * opens, written on every change, removed after a successful submission. It survives closing the tab and reloading.
 */
export class DraftStore<T> {
  private readonly key: string;

  constructor(
    private readonly storage: Storage,
    key: string,
    private readonly rules: DraftRules<T>,
  ) {
    this.key = DRAFT_PREFIX + key;
  }

  load(): T | null {
    const stored = this.storage.get<unknown>(this.key, null);
    if (stored === null) return null;
    try {
      return this.rules.revive(stored);
    } catch {
      return null;
    }
  }

  save(draft: T): void {
    if (this.rules.isEmpty(draft)) this.storage.remove(this.key);
    else this.storage.set(this.key, this.rules.keep(draft));
  }

  clear(): void {
    this.storage.remove(this.key);
  }
}

/** Checks for revive(): a plain object, and typed fields of it. */
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const stringOr = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback);
export const numberOr = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
/** An object with a positive numeric id (a picked avatar, voice or file), else null. */
export const pickedOr = <P>(v: unknown): P | null => (isRecord(v) && typeof v.id === 'number' && v.id > 0 ? (v as P) : null);
