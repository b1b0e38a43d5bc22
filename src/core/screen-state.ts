/**
 * The rxjs pieces a plugin's state service holds for an open screen: a value from the server (loaded, reloaded,
 * polled), a busy flag around a call, and the delete confirmation of a list. Views subscribe (screen-hooks.ts);
 * the logic runs and is tested without React.
 */
import { BehaviorSubject, merge, NEVER, of, Subject, Subscription, type Observable } from 'rxjs';
import { MSG } from '../contract';
import { leadingGate } from './leading-gate';
import { errorMessage, mergePages, remoteValue, type Page, type PollWhile, type Remote } from './remote';
import { TIMINGS } from './timings';
import type { Notifier, PollingService } from './tokens';

export interface RemoteStoreOptions<T> {
  /** Ask again every `intervalMs` through `polling` while `keepGoing(value)` holds, until `stop$` or dispose. */
  poll?: PollWhile<T> & { polling: PollingService };
}

/**
 * A value from the server as a state service holds it (the rxjs twin of useRemote): `reload` asks (aborting the
 * call before), the last value stays while reloading and after a failure; with `poll`, each answer that says to
 * keep going starts polling (the first tick passes on that answer), one that does not stops it.
 */
export class RemoteStore<T> {
  readonly remote$ = new BehaviorSubject<Remote<T>>({ state: 'idle' });
  /** Polling now (the last answer said to keep going). */
  readonly polling$ = new BehaviorSubject(false);
  private controller: AbortController | null = null;
  private poller: Subscription | null = null;
  private readonly disposed$ = new Subject<void>();
  private disposed = false;

  constructor(
    private readonly load: (signal?: AbortSignal) => Promise<T>,
    private readonly options: RemoteStoreOptions<T> = {},
  ) {}

  get value(): T | undefined {
    return remoteValue(this.remote$.value);
  }

  /** Asks again. `clear` drops the value shown first (another filter: a spinner, not the old list). */
  reload(options: { clear?: boolean } = {}): void {
    if (this.disposed) return;
    this.controller?.abort();
    if (options.clear) this.stopPolling();
    const controller = new AbortController();
    this.controller = controller;
    this.remote$.next({ state: 'loading', value: options.clear ? undefined : this.value });
    this.load(controller.signal).then(
      (value) => {
        if (controller.signal.aborted) return;
        this.controller = null;
        this.set(value);
      },
      (err: unknown) => {
        if (controller.signal.aborted) return;
        this.controller = null;
        this.remote$.next({ state: 'error', message: errorMessage(err), value: this.value });
      },
    );
  }

  /** Changes the value in place (an appended page, a record marked read). */
  update(change: (value: T) => T): void {
    const current = this.remote$.value;
    if (current.state === 'idle' || current.value === undefined) return;
    this.remote$.next({ ...current, value: change(current.value) });
  }

  /** Stops asking for good: the call in flight is dropped, polling ends. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.controller?.abort();
    this.stopPolling();
    this.disposed$.next();
  }

  private set(value: T) {
    this.remote$.next({ state: 'ok', value });
    const poll = this.options.poll;
    if (!poll) return;
    if (!poll.keepGoing(value)) return this.stopPolling();
    if (this.poller) return;
    let first = true;
    this.polling$.next(true);
    this.poller = poll.polling
      .poll(
        () => {
          // The first tick comes at once and would repeat the answer just shown: it passes that answer on instead.
          if (!first) return this.load();
          first = false;
          return of(value);
        },
        { intervalMs: poll.intervalMs, keepGoing: (v: T) => poll.keepGoing(v), stop$: merge(poll.stop$ ?? NEVER, this.disposed$) },
      )
      .subscribe({
        next: (v) => {
          // A reload in flight answers for itself.
          if (v !== this.value && !this.controller) this.remote$.next({ state: 'ok', value: v });
        },
        complete: () => {
          this.poller = null;
          this.polling$.next(false);
        },
      });
  }

  private stopPolling() {
    this.poller?.unsubscribe();
    this.poller = null;
    if (this.polling$.value) this.polling$.next(false);
  }
}

/** Whether a list has a page after those loaded: by its total when the server counts, else by the last page's `more`. */
export function hasMorePages<I>(value: Page<I> | undefined): boolean {
  if (value === undefined) return false;
  return value.total !== undefined ? value.items.length < value.total : (value.more ?? false);
}

/**
 * A paged list in a RemoteStore (the rxjs twin of usePagedList): reloads ask again for every page loaded so far,
 * merged; `loadMore` appends the next.
 */
export class PagedStore<I extends { id: number }, P extends Page<I>> {
  readonly list: RemoteStore<P>;
  readonly loadingMore$ = new BehaviorSubject(false);
  private pages = 1;

  constructor(
    private readonly fetchPage: (page: number, signal?: AbortSignal) => Promise<P>,
    options: RemoteStoreOptions<P> = {},
  ) {
    this.list = new RemoteStore(async (signal) => mergePages(await Promise.all(Array.from({ length: this.pages }, (_, i) => fetchPage(i + 1, signal)))), options);
  }

  reload(): void {
    this.list.reload();
  }

  loadMore(): void {
    if (this.loadingMore$.value) return;
    const next = this.pages + 1;
    this.loadingMore$.next(true);
    this.fetchPage(next).then(
      (page) => {
        this.loadingMore$.next(false);
        this.pages = next;
        this.list.update((shown) => mergePages([shown, page]));
      },
      () => this.loadingMore$.next(false),
    );
  }

  dispose(): void {
    this.list.dispose();
  }
}

/**
 * Runs `work` with `busy$` set; true when it succeeded. A failure has already been shown by the ApiClient (the
 * server's message), so it only answers false.
 */
export function runBusy(busy$: BehaviorSubject<boolean>, work: () => Promise<unknown>): Promise<boolean> {
  return busyWhile((on) => busy$.next(on), work);
}

/** runBusy for one item of a list: `key` is in `busy$` while `work` runs, so each item shows its own spinner. */
export function runBusyItem<K>(busy$: BehaviorSubject<ReadonlySet<K>>, key: K, work: () => Promise<unknown>): Promise<boolean> {
  return busyWhile((on) => {
    const next = new Set(busy$.value);
    if (on) next.add(key);
    else next.delete(key);
    busy$.next(next);
  }, work);
}

async function busyWhile(mark: (on: boolean) => void, work: () => Promise<unknown>): Promise<boolean> {
  mark(true);
  try {
    await work();
    return true;
  } catch {
    return false;
  } finally {
    mark(false);
  }
}

/** The delete confirmation of a list (the rxjs twin of useDeletion): the item asked about, the call, then `after`. */
export class DeletionFlow<T> {
  readonly target$ = new BehaviorSubject<T | null>(null);
  readonly busy$ = new BehaviorSubject(false);

  constructor(
    private readonly notifier: Notifier,
    private readonly remove: (target: T) => Promise<unknown>,
    private readonly after: (target: T) => void,
  ) {}

  ask(target: T): void {
    this.target$.next(target);
  }

  /** Closes the confirmation and says it was cancelled. */
  cancel(): void {
    this.target$.next(null);
    this.notifier.info(MSG.deleteCancelled);
  }

  /** Deletes the target; on success says so, closes and runs `after`; a refusal keeps the confirmation open. */
  async confirm(): Promise<boolean> {
    const item = this.target$.value;
    if (item === null || this.busy$.value) return false;
    if (!(await runBusy(this.busy$, () => this.remove(item)))) return false;
    this.notifier.success(MSG.deleteSucceeded);
    this.target$.next(null);
    this.after(item);
    return true;
  }
}

/**
 * The state of one open screen: what it subscribes to and owns lives in `life`, let go together when it is disposed
 * or its panel closes (a reopened screen starts afresh).
 */
export class OpenScreen {
  protected readonly life = new Subscription();

  /** The stores the screen owns are disposed with it; `closed$` (the panel's close) disposes it. */
  protected ownUntil(closed$: Observable<unknown> | undefined, owned: readonly { dispose(): void }[]): void {
    for (const o of owned) this.life.add(() => o.dispose());
    if (closed$) this.life.add(closed$.subscribe(() => this.dispose()));
  }

  /** ownUntil for stores the screen shows from the start: each is asked for its first value at once. */
  protected ownAndLoad(closed$: Observable<unknown> | undefined, stores: readonly { reload(): void; dispose(): void }[]): void {
    this.ownUntil(closed$, stores);
    for (const store of stores) store.reload();
  }

  dispose(): void {
    this.life.unsubscribe();
  }
}

/** An open screen with a form: its fields in `form$`, changed a few at a time. */
export class FormScreen<F> extends OpenScreen {
  readonly form$: BehaviorSubject<F>;

  constructor(empty: F) {
    super();
    this.form$ = new BehaviorSubject(empty);
  }

  get form(): F {
    return this.form$.value;
  }

  patch(change: Partial<F>): void {
    this.form$.next({ ...this.form, ...change });
  }
}

/**
 * A generation screen's form (image, video, music): its generate button passes one click a TIMINGS.submitThrottleMs
 * window, says the form's first problem (`problem`) or opens the price's confirmation; `sendConfirmed` makes the
 * call once confirmed, with `submitting$` set, and closes the confirmation either way.
 */
export abstract class GenerationFormScreen<F> extends FormScreen<F> {
  /** The price's confirmation is open. */
  readonly confirming$ = new BehaviorSubject(false);
  /** The generation's call is on its way. */
  readonly submitting$ = new BehaviorSubject(false);
  private readonly gate = leadingGate(TIMINGS.submitThrottleMs);

  constructor(
    empty: F,
    private readonly warn: Pick<Notifier, 'warn'>,
  ) {
    super(empty);
  }

  /** What stops the form from generating now (null: nothing). */
  protected abstract problem(): string | null;

  /** The generate button: one click a throttle window; the first problem is said, else the price's confirmation opens. */
  ask(): void {
    if (!this.gate()) return;
    const problem = this.problem();
    if (problem) return this.warn.warn(problem);
    this.confirming$.next(true);
  }

  cancelConfirm(): void {
    this.confirming$.next(false);
  }

  /** Confirmed: `send` runs with `submitting$` set, then the confirmation closes; true when it succeeded. */
  protected async sendConfirmed(send: () => Promise<unknown>): Promise<boolean> {
    const ok = await runBusy(this.submitting$, send);
    this.confirming$.next(false);
    return ok;
  }
}
