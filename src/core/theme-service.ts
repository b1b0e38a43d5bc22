import { inject, injectable } from 'inversify';
import { BehaviorSubject, type Observable } from 'rxjs';
import { TOKENS, type Storage, type Theme, type ThemeService } from './tokens';

/** Dark by default (part 1 §1); the choice persists. */
@injectable()
export class PersistedThemeService implements ThemeService {
  private readonly subject: BehaviorSubject<Theme>;
  readonly theme$: Observable<Theme>;

  constructor(@inject(TOKENS.Storage) private readonly storage: Storage) {
    const saved = storage.get<Theme>('theme', 'dark');
    this.subject = new BehaviorSubject<Theme>(saved === 'light' ? 'light' : 'dark');
    this.theme$ = this.subject.asObservable();
  }

  get current(): Theme {
    return this.subject.value;
  }
  toggle(): void {
    this.set(this.current === 'dark' ? 'light' : 'dark');
  }
  set(theme: Theme): void {
    this.storage.set('theme', theme);
    this.subject.next(theme);
  }
}
