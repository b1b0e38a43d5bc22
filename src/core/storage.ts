import { injectable } from 'inversify';
import type { Storage } from './tokens';

const PREFIX = 'aisa.';

/** localStorage with JSON values, tolerant of private mode and corrupt entries. */
@injectable()
export class LocalStorageService implements Storage {
  constructor(private readonly backend: globalThis.Storage | undefined = globalThis.localStorage) {}

  get<T>(key: string, fallback: T): T {
    try {
      const raw = this.backend?.getItem(PREFIX + key);
      return raw == null ? fallback : (JSON.parse(raw) as T);
    } catch {
      return fallback;
    }
  }

  set(key: string, value: unknown): void {
    try {
      this.backend?.setItem(PREFIX + key, JSON.stringify(value));
    } catch {
      /* quota or private mode: the app still works, it just forgets */
    }
  }

  remove(key: string): void {
    this.backend?.removeItem(PREFIX + key);
  }

  removeAll(prefix: string): void {
    const backend = this.backend;
    if (!backend) return;
    const doomed: string[] = [];
    for (let i = 0; i < backend.length; i++) {
      const key = backend.key(i);
      if (key?.startsWith(PREFIX + prefix)) doomed.push(key);
    }
    for (const key of doomed) backend.removeItem(key);
  }
}
