import { inject, injectable } from 'inversify';
import { BehaviorSubject, Subscription, type Observable } from 'rxjs';
import { API, CopywriteType, LIMITS, MSG, videoSource, type CallResponse, type CopyRecord, type RewriteStyle } from '../../contract';
import {
  DeletionFlow, OpenScreen, copyText, openInCreate, RemoteStore, ShareForm, SharedVideoJobs, TIMINGS, TOKENS, followAnswer, readAnswer, runBusy, type ApiClient, type AuthService,
  type Navigation, type Notifier, type PollingService, type Storage, type TokenStore,
} from '../../core';
import { anyOpen, COPYWRITE_ROUTE, isOpen, rewriteUrl } from './copywrite-view';

export const CopywriteStateToken = Symbol.for('copywrite.State');

/** A history page. */
const PAGE_SIZE = LIMITS.copywrite.pageSize;

/** Records shown under the form (the rest are on /store/copywrite/trace). */
export const RECENT = 5;

interface Services {
  api: ApiClient;
  notifier: Notifier;
  auth: AuthService;
  polling: PollingService;
  tokens: TokenStore;
  storage: Storage;
  navigation: Navigation;
  read: typeof readAnswer;
  clipboard: (text: string) => Promise<void>;
}

type RecordList = CallResponse<typeof API.copywrite.list>;

/** Makes the state of each open copy-extraction screen; what both screens do with a record is here too. */
@injectable()
export class CopywriteState {
  private readonly s: Services;
  /** The extraction screen open now, so the palette's commands reach it. */
  readonly screen$ = new BehaviorSubject<CopywriteScreen | null>(null);
  constructor(
    @inject(TOKENS.ApiClient) api: ApiClient,
    @inject(TOKENS.Notifier) notifier: Notifier,
    @inject(TOKENS.AuthService) auth: AuthService,
    @inject(TOKENS.PollingService) polling: PollingService,
    @inject(TOKENS.TokenStore) tokens: TokenStore,
    @inject(TOKENS.Storage) storage: Storage,
    @inject(TOKENS.Navigation) navigation: Navigation,
  ) {
    this.s = { api, notifier, auth, polling, tokens, storage, navigation, read: readAnswer, clipboard: (text) => navigator.clipboard.writeText(text) };
  }

  open(closed$?: Observable<unknown>, overrides: Partial<Pick<Services, 'read' | 'clipboard'>> = {}): CopywriteScreen {
    const screen = new CopywriteScreen({ ...this.s, ...overrides }, closed$);
    this.screen$.next(screen);
    screen.disposed.add(() => this.screen$.value === screen && this.screen$.next(null));
    return screen;
  }

  openTrace(closed$?: Observable<unknown>): TraceScreen {
    return new TraceScreen(this.s, closed$);
  }
}

/** The rewrite under way or done: its text so far, and why it stopped when it failed. */
export interface Rewrite {
  text: string;
  streaming: boolean;
  error?: string;
}

/**
 * /copywrite/index: the link box or the upload, submit; the record shown (the newest, the one just submitted, or the
 * one re-opened from the history; asked again every TIMINGS.extractionPollMs while it is read) with its copy, copy,
 * edit in place, save to material, 去创作; 二创改写 in a style, streamed.
 */
export class CopywriteScreen {
  readonly form: ShareForm;
  readonly recent: RemoteStore<RecordList>;
  /** The record shown. */
  readonly selected$: BehaviorSubject<number | null>;
  readonly current: RemoteStore<CopyRecord | null>;
  private readonly jobs: SharedVideoJobs<CopyRecord, RecordList>;
  /** The copy being edited (null: not editing). */
  readonly draft$ = new BehaviorSubject<string | null>(null);
  readonly savingEdit$ = new BehaviorSubject(false);
  readonly style$ = new BehaviorSubject<RewriteStyle>('koubo');
  readonly instruction$ = new BehaviorSubject('');
  readonly rewrite$ = new BehaviorSubject<Rewrite | null>(null);
  readonly disposed = new Subscription();
  private stream: AbortController | null = null;

  constructor(
    private readonly s: Services,
    closed$?: Observable<unknown>,
  ) {
    const jobs = new SharedVideoJobs<CopyRecord, RecordList>({
      ...s,
      way: CopywriteType.Link,
      limit: RECENT,
      byUpload: (way) => way === CopywriteType.Upload,
      list: (query, signal) => s.api.call(API.copywrite.list, query, { silent: true, signal }),
      isOpen,
      submit: (source) => s.api.call(API.copywrite.submit, videoSource(source)),
      // Another record: its rewrite box afresh.
      leaving: () => {
        this.stopRewrite();
        this.draft$.next(null);
        this.rewrite$.next(null);
      },
    });
    this.jobs = jobs;
    ({ form: this.form, recent: this.recent, current: this.current, selected$: this.selected$ } = jobs);
    this.disposed.add(() => this.stream?.abort());
    this.disposed.add(() => jobs.dispose());
    if (closed$) this.disposed.add(closed$.subscribe(() => this.dispose()));
  }

  /** Shows record `id` (its copy, its rewrite box afresh). */
  select(id: number): void {
    this.jobs.select(id);
  }

  /** Submit: the problem is said, else sent; a success empties the form and shows the new record. */
  start(): Promise<boolean> {
    return this.form.start();
  }

  async copy(text: string): Promise<void> {
    await copyText(this.s, text);
  }

  edit(): void {
    const r = this.current.value;
    if (r) this.draft$.next(r.text);
  }

  cancelEdit(): void {
    this.draft$.next(null);
  }

  /** Keeps the edit; the record shows it at once. */
  async saveEdit(): Promise<boolean> {
    const r = this.current.value;
    const text = this.draft$.value?.trim() ?? '';
    if (!r) return false;
    if (!text) {
      this.s.notifier.error(MSG.copyTextRequired);
      return false;
    }
    const saved = await runBusy(this.savingEdit$, () => this.s.api.call(API.copywrite.edit, { id: r.id, text }));
    if (!saved) return false;
    this.current.update((x) => (x ? { ...x, text } : x));
    this.draft$.next(null);
    this.s.notifier.success(MSG.saveSucceeded);
    return true;
  }

  /** The record's copy (or a rewrite of it) into the material library. */
  async saveToMaterial(text?: string): Promise<void> {
    const r = this.current.value;
    if (!r) return;
    try {
      await this.s.api.call(API.copywrite.save, { id: r.id, ...(text ? { text } : {}) });
      this.s.notifier.success(MSG.savedToMaterial);
    } catch {
      // the ApiClient has said why
    }
  }

  /** 去创作: the text waits in storage for the /create editor (type=fk). */
  goCreate(text: string): void {
    openInCreate(this.s, text);
  }

  /** 二创改写 of the record's copy (as saved) in the chosen style; the text streams into rewrite$. */
  async rewrite(): Promise<void> {
    const r = this.current.value;
    if (!r || this.rewrite$.value?.streaming) return;
    const style = this.style$.value;
    const instruction = this.instruction$.value.trim();
    if (style === 'custom' && !instruction) {
      this.s.notifier.error(MSG.copyRewriteInstructionRequired);
      return;
    }
    const controller = new AbortController();
    this.stream = controller;
    this.rewrite$.next({ text: '', streaming: true });
    const patch = (change: (w: Rewrite) => Rewrite) => this.rewrite$.next(change(this.rewrite$.value ?? { text: '', streaming: true }));
    await followAnswer(
      this.s,
      rewriteUrl(this.s.tokens.get() ?? '', { id: r.id, style, instruction }),
      controller.signal,
      (e) => patch((w) => ({ ...w, text: w.text + e.message, error: e.error ?? w.error })),
      (message) => patch((w) => ({ ...w, error: message })),
    );
    if (this.stream === controller) this.stream = null;
    patch((w) => ({ ...w, streaming: false }));
    void this.s.auth.refreshProfile().catch(() => undefined);
  }

  /** Stops the rewrite: what arrived stays. */
  stopRewrite(): void {
    this.stream?.abort();
    this.stream = null;
    const w = this.rewrite$.value;
    if (w?.streaming) this.rewrite$.next({ ...w, streaming: false });
  }

  dispose(): void {
    this.disposed.unsubscribe();
  }
}

/** /store/copywrite/trace: the records a page at a time (refreshed while one is read), re-open, delete. */
export class TraceScreen extends OpenScreen {
  readonly page$ = new BehaviorSubject(1);
  readonly records: RemoteStore<RecordList>;
  readonly deletion: DeletionFlow<CopyRecord>;

  constructor(
    private readonly s: Services,
    closed$?: Observable<unknown>,
  ) {
    super();
    this.records = new RemoteStore(
      (signal) => s.api.call(API.copywrite.list, { page: this.page$.value, limit: PAGE_SIZE }, { silent: true, signal }),
      { poll: { polling: s.polling, intervalMs: TIMINGS.extractionPollMs, keepGoing: (v) => anyOpen(v.list) } },
    );
    this.deletion = new DeletionFlow(s.notifier, (r) => s.api.call(API.copywrite.remove, { id: r.id }), () => {
      // The last record of a page gone: the page before.
      const shown = this.records.value?.list.length ?? 0;
      if (shown <= 1 && this.page$.value > 1) this.page$.next(this.page$.value - 1);
      this.records.reload();
    });
    this.ownAndLoad(closed$, [this.records]);
  }

  get pageSize(): number {
    return PAGE_SIZE;
  }

  goTo(page: number): void {
    if (page === this.page$.value || page < 1) return;
    this.page$.next(page);
    this.records.reload({ clear: true });
  }

  /** Re-opens a record on the extraction screen. */
  reopen(r: CopyRecord): void {
    this.s.navigation.navigate(COPYWRITE_ROUTE, { id: r.id });
  }
}
