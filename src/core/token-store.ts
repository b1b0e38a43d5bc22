import { inject, injectable } from 'inversify';
import { BehaviorSubject, type Observable } from 'rxjs';
import { TOKENS, type Storage, type TokenStore } from './tokens';

const KEY = 'token';

/** The session token, kept in local storage (part 1 §6) and observable. */
@injectable()
export class LocalTokenStore implements TokenStore {
  private readonly subject: BehaviorSubject<string | null>;
  readonly token$: Observable<string | null>;

  constructor(@inject(TOKENS.Storage) private readonly storage: Storage) {
    this.subject = new BehaviorSubject<string | null>(storage.get<string | null>(KEY, null));
    this.token$ = this.subject.asObservable();
  }

  get() {
    return this.subject.value;
  }
  set(token: string) {
    this.storage.set(KEY, token);
    this.subject.next(token);
  }
  clear() {
    this.storage.remove(KEY);
    this.subject.next(null);
  }
}
