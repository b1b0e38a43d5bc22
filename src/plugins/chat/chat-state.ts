import { inject, injectable } from 'inversify';
import { BehaviorSubject, distinctUntilChanged, EMPTY, interval, map, switchMap, type Observable } from 'rxjs';
import { API, LIMITS, MSG, type CallResponse, type ChatModel, type ChatRecord } from '../../contract';
import {
  DeletionFlow, copyText, openInCreate, followAnswer, OpenScreen, PagedStore, RemoteStore, TOKENS, type ScreenServices,
} from '../../core';
import { answerStreamUrl, readAnswer } from './chat-stream';
import { exchange, fromMessage, lastModel, materialName, patchLast, stopped, typeTick, typing, type Bubble } from './chat-view';

export const ChatStateToken = Symbol.for('chat.State');

/** The answer stream (chat-stream.ts's readAnswer; a spec passes its own). */
export type ReadAnswer = typeof readAnswer;

type Services = ScreenServices & { read: ReadAnswer; clipboard: (text: string) => Promise<void> };

/** Makes the state of each open copy chat. */
@injectable()
export class ChatState {
  constructor(@inject(TOKENS.ScreenServices) private readonly core: ScreenServices) {}

  /** One chat's state, from its open until `closed$` emits or it is disposed (the stream in flight stops). */
  open(closed$?: Observable<unknown>, overrides: Partial<Pick<Services, 'read' | 'clipboard'>> = {}): ChatScreen {
    return new ChatScreen({ ...this.core, read: readAnswer, clipboard: (text) => navigator.clipboard.writeText(text), ...overrides }, closed$);
  }
}

/** Where a question is: nothing asked, the question being sent (before its answer streams), the answer streaming. */
export type ChatPhase = 'idle' | 'sending' | 'streaming';

type HistoryPage = { items: ChatRecord[]; total?: number };

/**
 * /store/aiChat (part 2 §2.10, §4): the engine, the conversation list (paged), the open conversation's bubbles,
 * the model and the input; send (the answer streams in and types out one character a LIMITS.chatTypingMs, faster
 * when far behind), stop, new, reopen and delete a conversation; copy, go create and save an answer.
 */
export class ChatScreen extends OpenScreen {
  readonly engine: RemoteStore<CallResponse<typeof API.chat.engine>>;
  readonly history: PagedStore<ChatRecord, HistoryPage>;
  readonly bubbles$ = new BehaviorSubject<Bubble[]>([]);
  /** The open conversation, undefined for a new one. */
  readonly cid$ = new BehaviorSubject<number | undefined>(undefined);
  readonly model$ = new BehaviorSubject<ChatModel>('v3');
  readonly input$ = new BehaviorSubject('');
  readonly phase$ = new BehaviorSubject<ChatPhase>('idle');
  /** The conversation being opened (its messages are on the way). */
  readonly opening$ = new BehaviorSubject<number | null>(null);
  readonly deletion: DeletionFlow<ChatRecord>;
  private stream: AbortController | null = null;

  constructor(
    private readonly s: Services,
    closed$?: Observable<unknown>,
  ) {
    super();
    const { api } = s;
    this.engine = new RemoteStore((signal) => api.call(API.chat.engine, {}, { silent: true, signal }));
    this.history = new PagedStore((page, signal) => api.call(API.chat.records, { page, limit: 20 }, { signal }).then((r) => ({ items: r.list, total: r.total })));
    this.deletion = new DeletionFlow(s.notifier, (r) => api.call(API.chat.recordRemove, { id: r.id }), (r) => {
      if (r.id === this.cid$.value) this.newConversation();
      this.history.reload();
    });
    // The typing effect ticks only while some answer is behind what has arrived.
    this.life.add(
      this.bubbles$
        .pipe(
          map(typing),
          distinctUntilChanged(),
          switchMap((behind) => (behind ? interval(LIMITS.chatTypingMs) : EMPTY)),
        )
        .subscribe(() => this.bubbles$.next(typeTick(this.bubbles$.value))),
    );
    this.life.add(() => this.stream?.abort());
    this.ownAndLoad(closed$, [this.engine, this.history]);
  }

  get configured(): boolean {
    return this.engine.value?.configured === 1;
  }

  get busy(): boolean {
    return this.phase$.value !== 'idle';
  }

  /** Sends the input (once: a second Enter while it is on its way does nothing); its answer streams into a new bubble. */
  async send(): Promise<void> {
    const content = this.input$.value.trim();
    if (!content || this.busy || !this.configured) return;
    this.phase$.next('sending');
    const model = this.model$.value;
    let ids: { cid: number; mid: number };
    try {
      ids = await this.s.api.call(API.chat.sendMessage, { cid: this.cid$.value, content, model });
    } catch {
      this.phase$.next('idle'); // the ApiClient has said why; the question stays in the input
      return;
    }
    this.cid$.next(ids.cid);
    this.input$.next('');
    this.bubbles$.next([...this.bubbles$.value, ...exchange(ids.mid, content, model)]);
    const controller = new AbortController();
    this.stream = controller;
    this.phase$.next('streaming');
    const patch = (change: (b: Bubble) => Bubble) => this.bubbles$.next(patchLast(this.bubbles$.value, change));
    await followAnswer(
      this.s,
      answerStreamUrl(this.s.tokens.get() ?? '', ids),
      controller.signal,
      (e) => patch((b) => ({ ...b, content: b.content + e.message, reasoning: b.reasoning + (e.reasoning ?? ''), error: e.error ?? b.error })),
      (message) => patch((b) => ({ ...b, error: message })),
    );
    patch((b) => ({ ...b, streaming: false }));
    this.stream = null;
    this.phase$.next('idle');
    this.history.reload();
    void this.s.auth.refreshProfile().catch(() => undefined);
  }

  /** Stop: the stream closes, what arrived stays (shown at once). */
  stop(): void {
    this.stream?.abort();
    this.bubbles$.next(patchLast(this.bubbles$.value, stopped));
  }

  newConversation(): void {
    if (this.busy) return;
    this.cid$.next(undefined);
    this.bubbles$.next([]);
  }

  /** Reopens a conversation: its messages, and the model its last answer used. */
  async openRecord(record: ChatRecord): Promise<void> {
    if (this.busy) return;
    this.opening$.next(record.id);
    try {
      const { list } = await this.s.api.call(API.chat.messages, { cid: record.id });
      this.cid$.next(record.id);
      this.bubbles$.next(list.map(fromMessage));
      const model = lastModel(list);
      if (model) this.model$.next(model);
    } catch {
      // the ApiClient has said why
    } finally {
      this.opening$.next(null);
    }
  }

  async copy(text: string): Promise<void> {
    await copyText(this.s, text);
  }

  /** 去创作: the answer waits in storage for the /create editor. */
  goCreate(text: string): void {
    openInCreate(this.s, text);
  }

  async saveToMaterial(text: string): Promise<void> {
    try {
      await this.s.api.call(API.material.saveText, { name: materialName(text), source: 'copy_chat', text });
      this.s.notifier.success(MSG.savedToMaterial);
    } catch {
      // the ApiClient has said why
    }
  }

}
