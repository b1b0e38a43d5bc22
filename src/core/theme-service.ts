import { inject, injectable } from 'inversify';
import { BehaviorSubject, type Observable } from 'rxjs';
import { TOKENS, type Storage, type Theme, type ThemeService } from './tokens';

/** The system's preference: light when it asks for light, else dark (the spec's default, part 1 §1). */
const LIGHT_QUERY = '(prefers-color-scheme: light)';
const systemQuery = (): MediaQueryList | null => (typeof matchMedia === 'function' ? matchMedia(LIGHT_QUERY) : null);

/**
 * The theme follows the system's preference until the user picks one (issue 33); the pick persists and wins from then
 * on. With no preference (or no matchMedia) it is dark, as the spec says.
 */
@injectable()
export class PersistedThemeService implements ThemeService {
  private readonly subject: BehaviorSubject<Theme>;
  readonly theme$: Observable<Theme>;
  private readonly system = systemQuery();
  private readonly follow = (e: MediaQueryListEvent) => this.subject.next(e.matches ? 'light' : 'dark');

  constructor(@inject(TOKENS.Storage) private readonly storage: Storage) {
    const saved = storage.get<Theme | null>('theme', null);
    const picked = saved === 'light' || saved === 'dark' ? saved : null;
    this.subject = new BehaviorSubject<Theme>(picked ?? (this.system?.matches ? 'light' : 'dark'));
    this.theme$ = this.subject.asObservable();
    if (!picked) this.system?.addEventListener('change', this.follow);
  }

  get current(): Theme {
    return this.subject.value;
  }
  toggle(): void {
    this.set(this.current === 'dark' ? 'light' : 'dark');
  }
  set(theme: Theme): void {
    this.system?.removeEventListener('change', this.follow);
    this.storage.set('theme', theme);
    this.subject.next(theme);
  }
}
