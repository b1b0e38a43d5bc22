import { inject, injectable } from 'inversify';
import { BehaviorSubject, type Observable } from 'rxjs';
import { API, HelperEvent, HelperPlanStatus, withStep, type HelperConversation, type HelperPlan, type HelperStep, type HelperTurn } from '../../contract';
import { followAnswer, OpenScreen, readAnswer, RemoteStore, TIMINGS, TOKENS, type ScreenServices } from '../../core';

export const HelperStateToken = Symbol.for('helper.State');
export const GUIDE_ROUTE = '/helper/index';
export const OPERATION_ROUTE = '/helper/operation';
export const TASKS_ROUTE = '/helper/asyncOperation';

/** /helper/index answers how-to questions; /helper/operation operates; /helper/asyncOperation runs background tasks. */
export type HelperMode = 'guide' | 'operation' | 'tasks';

/** Makes the state of the three helper screens. */
@injectable()
export class HelperState {
  constructor(@inject(TOKENS.ScreenServices) private readonly core: ScreenServices) {}

  screen(mode: HelperMode, closed$?: Observable<unknown>): HelperScreen {
    return new HelperScreen(this.core, mode, closed$);
  }
}

export interface HelperLine {
  key: string;
  role: 'user' | 'assistant';
  content: string;
  /** The tools run for it, as they happen. */
  steps: HelperStep[];
  /** What waits for (or ran after) the user's confirmation. */
  plan?: HelperPlan;
  streaming?: boolean;
  error?: string;
}


/** A kept turn as the screen's two lines. */
const turnLines = (t: HelperTurn): HelperLine[] => [
  { key: `h${t.id}q`, role: 'user', content: t.question, steps: [] },
  { key: `h${t.id}`, role: 'assistant', content: t.answer, steps: t.steps, plan: t.plan ?? undefined, error: t.error || undefined },
];

export class HelperScreen extends OpenScreen {
  /** Whether the chat engine is set (the screen says so up front without it). */
  readonly status: RemoteStore<{ chat: number }>;
  /** My background tasks, polled while one runs (the tasks screen only). */
  readonly tasks: RemoteStore<HelperPlan[]> | null;
  /** My past conversations of this screen (operating and tasks; the how-to screen keeps none). */
  readonly history: RemoteStore<HelperConversation[]> | null;
  /** The conversation on screen (null: a new one, started by the next request). */
  readonly cid$ = new BehaviorSubject<number | null>(null);
  readonly lines$ = new BehaviorSubject<HelperLine[]>([]);
  readonly input$ = new BehaviorSubject('');
  readonly streaming$ = new BehaviorSubject(false);
  /** The plan being confirmed or cancelled. */
  readonly busy$ = new BehaviorSubject<number | null>(null);
  private stream: AbortController | null = null;
  private seq = 0;

  constructor(
    private readonly s: ScreenServices,
    readonly mode: HelperMode,
    closed$?: Observable<unknown>,
  ) {
    super();
    this.status = new RemoteStore((signal) => s.api.call(API.helper.status, {}, { signal }).then((r) => ({ chat: r.chat })));
    this.tasks =
      mode === 'tasks'
        ? new RemoteStore((signal) => s.api.call(API.helper.plans, {}, { signal }).then((r) => r.list), {
            poll: { polling: s.polling, intervalMs: TIMINGS.worksPollMs, keepGoing: (list) => list.some((p) => p.status === HelperPlanStatus.Running) },
          })
        : null;
    this.history =
      mode === 'guide' ? null : new RemoteStore((signal) => s.api.call(API.helper.conversations, { async: mode === 'tasks' ? 1 : 0 }, { signal }).then((r) => r.list));
    this.life.add(() => this.stream?.abort());
    this.ownAndLoad(closed$, [this.status, ...(this.tasks ? [this.tasks] : []), ...(this.history ? [this.history] : [])]);
  }

  /** Asks; the answer streams in, each tool run shows as a step, a spending request ends with a confirmation card. */
  async ask(question = this.input$.value): Promise<void> {
    const q = question.trim();
    if (!q || this.streaming$.value) return;
    const key = `l${++this.seq}`;
    this.input$.next('');
    this.lines$.next([...this.lines$.value, { key: `${key}q`, role: 'user', content: q, steps: [] }, { key, role: 'assistant', content: '', steps: [], streaming: true }]);
    this.streaming$.next(true);
    const controller = new AbortController();
    this.stream = controller;
    const token = this.s.tokens.get() ?? '';
    const url =
      this.mode === 'guide'
        ? `${API.helper.guide.path}?${new URLSearchParams({ token, q })}`
        : `${API.helper.operate.path}?${new URLSearchParams({ token, q, async: this.mode === 'tasks' ? '1' : '0', ...(this.cid$.value ? { cid: String(this.cid$.value) } : {}) })}`;
    const patch = (change: (l: HelperLine) => HelperLine) => this.lines$.next(this.lines$.value.map((l) => (l.key === key ? change(l) : l)));
    await followAnswer(
      { ...this.s, read: (u, signal, onEvent) => readAnswer(u, signal, onEvent, HelperEvent) },
      url,
      controller.signal,
      (event) => {
        const e = event as HelperEvent;
        if (e.cid) this.cid$.next(e.cid);
        patch((l) => ({
          ...l, content: l.content + e.message, error: e.error ?? l.error,
          steps: e.step && e.step.state !== 'confirm' ? withStep(l.steps, e.step) : l.steps, plan: e.step?.plan ?? l.plan,
        }));
      },
      (message) => patch((l) => ({ ...l, error: message })),
    );
    patch((l) => ({ ...l, streaming: false }));
    this.stream = null;
    this.streaming$.next(false);
    this.history?.reload();
  }

  /** Reopens a past conversation of mine: its requests, steps and plans (as they stand now); the next request continues it. */
  async reopen(id: number): Promise<void> {
    if (this.streaming$.value) return;
    try {
      const conversation = await this.s.api.call(API.helper.conversation, { id });
      this.lines$.next(conversation.turns.flatMap((t) => turnLines(t)));
      this.cid$.next(id);
    } catch {
      // the ApiClient has said why (a conversation deleted elsewhere)
      this.history?.reload();
    }
  }

  /** A fresh conversation: the next request starts it. */
  startNew(): void {
    if (this.streaming$.value) return;
    this.lines$.next([]);
    this.cid$.next(null);
  }

  /** Deletes a past conversation of mine (the one on screen too). */
  async remove(id: number): Promise<void> {
    try {
      await this.s.api.call(API.helper.removeConversation, { id });
      if (this.cid$.value === id) this.startNew();
    } catch {
      // the ApiClient has said why
    }
    this.history?.reload();
  }

  stop(): void {
    this.stream?.abort();
  }

  /** The user confirms a plan: it runs as them (a task in the background); its outcome replaces the card's plan. */
  async confirm(plan: HelperPlan): Promise<void> {
    await this.onPlan(plan, () => this.s.api.call(API.helper.confirm, { id: plan.id }));
    void this.s.auth.refreshProfile().catch(() => undefined);
  }

  /** Declines a plan not yet confirmed, or cancels one item of a task that has not started. */
  cancel(plan: HelperPlan, itemId?: number): Promise<void> {
    return this.onPlan(plan, () => this.s.api.call(API.helper.cancel, { id: plan.id, item_id: itemId }));
  }

  private async onPlan(plan: HelperPlan, run: () => Promise<HelperPlan>): Promise<void> {
    this.busy$.next(plan.id);
    try {
      const next = await run();
      this.lines$.next(this.lines$.value.map((l) => (l.plan?.id === plan.id ? { ...l, plan: next } : l)));
      this.tasks?.reload();
    } catch {
      // the ApiClient has said why
    } finally {
      this.busy$.next(null);
    }
  }

  /** To the works list, where what the helper made is. */
  openWorks(): void {
    this.s.navigation.navigate('/works');
  }

  /** To another helper screen (the tabs). */
  go(route: string): void {
    this.s.navigation.navigate(route);
  }
}
