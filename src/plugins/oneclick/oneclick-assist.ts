/**
 * What the engines add to one-click creation, when the site has them: 生成文案 (a topic written into a script by the
 * chat engine) and 生成配图 (a picture per B-roll scene: the server asks the chat engine for a prompt and queues a
 * text-to-image record; the record is followed here and its picture saved to my materials, then put in the scene).
 * Without an engine the screens say so; pasting a script and picking or uploading a picture always work.
 */
import { BehaviorSubject } from 'rxjs';
import { API, ImagegenStatus, LIMITS, MSG, type CallResponse, type ImageRecord, type Material, type OneclickAspect, type StoryScene } from '../../contract';
import { ApiCallError, OpenScreen, RemoteStore, TIMINGS, runBusy, type ApiClient, type Notifier, type PollingService } from '../../core';
import type { TopicForm } from './oneclick-view';
import { EMPTY_TOPIC, topicProblem } from './oneclick-view';

export interface AssistServices {
  api: ApiClient;
  notifier: Notifier;
  polling: PollingService;
}

/** The parts of the open screen the engines write into. */
export interface AssistTarget {
  readonly form: { name: string; aspect: OneclickAspect; scenes: StoryScene[] };
  readonly pictures: RemoteStore<Material[]>;
  patch(change: { name?: string; script?: string }): void;
  patchScene(index: number, change: Partial<StoryScene>): void;
}

/** Answers after which the next scenes' pictures are not asked for. */
const STOPS_PAINTING = new Set<string>([MSG.insufficientCredits, MSG.oneclickImageMissing, MSG.oneclickChatMissing]);

/** A picture on its way: its record, and the scene (by text, as scenes may move meanwhile) it is for. */
interface Painting {
  record: number;
  text: string;
}

export class OneclickAssist extends OpenScreen {
  readonly engines: RemoteStore<CallResponse<typeof API.oneclick.engines>>;
  readonly topic$ = new BehaviorSubject<TopicForm>(EMPTY_TOPIC);
  readonly writing$ = new BehaviorSubject(false);
  /** The pictures being made (the B-roll scenes' texts show a spinner). */
  readonly painting$ = new BehaviorSubject<readonly Painting[]>([]);
  private readonly records: RemoteStore<ImageRecord[]>;

  constructor(
    private readonly s: AssistServices,
    private readonly target: AssistTarget,
  ) {
    super();
    const quiet = { silent: true } as const;
    this.engines = new RemoteStore((signal) => s.api.call(API.oneclick.engines, {}, { ...quiet, signal }));
    this.records = new RemoteStore(async (signal) => (await s.api.call(API.imagegen.list, { page: 1, limit: LIMITS.historyLimit }, { ...quiet, signal })).list, {
      poll: { polling: s.polling, intervalMs: TIMINGS.generationPollMs, keepGoing: (list) => this.painting$.value.some((p) => !this.ended(list, p)) },
    });
    this.ownUntil(undefined, [this.engines, this.records]);
    this.life.add(this.records.remote$.subscribe(() => void this.collect()));
    this.engines.reload();
  }

  patchTopic(change: Partial<TopicForm>): void {
    this.topic$.next({ ...this.topic$.value, ...change });
  }

  /** 生成文案: the topic's script replaces the script (and names an unnamed project). */
  async writeScript(): Promise<void> {
    const topic = this.topic$.value;
    const problem = topicProblem(topic);
    if (problem) return this.s.notifier.warn(problem);
    await runBusy(this.writing$, async () => {
      const written = await this.s.api.call(API.oneclick.script, { ...topic, topic: topic.topic.trim() });
      this.target.patch({ script: written.script, ...(this.target.form.name.trim() ? {} : { name: written.title }) });
    });
  }

  /** The B-roll scenes without a picture, not already being painted. */
  private unpainted(): StoryScene[] {
    const busy = new Set(this.painting$.value.map((p) => p.text));
    return this.target.form.scenes.filter((s) => s.kind === 'broll' && !s.image_url && s.text.trim() && !busy.has(s.text));
  }

  /**
   * 生成配图: one picture for each B-roll scene without one, each asked for from its own text (the server writes its
   * prompt in a chat answer of its own), so a scene whose prompt is refused (and refunded) leaves the others going.
   */
  async paint(): Promise<void> {
    const scenes = this.unpainted();
    if (!scenes.length) return this.s.notifier.warn(MSG.oneclickNothingToPaint);
    for (const scene of scenes) {
      try {
        const { id } = await this.s.api.call(API.oneclick.picture, { text: scene.text, aspect: this.target.form.aspect });
        this.painting$.next([...this.painting$.value, { record: id, text: scene.text }]);
      } catch (err) {
        // The server's message was shown; without credits or an engine the rest would say the same.
        if (err instanceof ApiCallError && STOPS_PAINTING.has(err.message)) break;
      }
    }
    this.records.reload();
  }

  private ended(list: readonly ImageRecord[], p: Painting): boolean {
    const status = list.find((r) => r.id === p.record)?.status;
    return status === ImagegenStatus.Success || status === ImagegenStatus.Failed;
  }

  /** Each finished picture goes to my materials (a copy that stays), then into its scene. */
  private async collect(): Promise<void> {
    const list = this.records.value ?? [];
    for (const p of this.painting$.value.filter((x) => this.ended(list, x))) {
      this.painting$.next(this.painting$.value.filter((x) => x !== p));
      const record = list.find((r) => r.id === p.record)!;
      if (record.status === ImagegenStatus.Failed) {
        this.s.notifier.warn(record.reason || MSG.oneclickPaintFailed);
        continue;
      }
      try {
        const { id } = await this.s.api.call(API.imagegen.save, { id: p.record, index: 0 });
        const material = (await this.s.api.call(API.material.list, { page: 1, limit: 100, type: 'image' })).list.find((m) => m.id === id);
        this.target.pictures.reload();
        const index = this.target.form.scenes.findIndex((s) => s.kind === 'broll' && !s.image_url && s.text === p.text);
        if (material && index >= 0) this.target.patchScene(index, { image_url: material.url });
      } catch {
        /* the server's message was shown */
      }
    }
  }

  /** A picture uploaded from inside a scene: it is in my materials now, and the scene's. */
  uploaded(index: number, url: string): void {
    this.target.pictures.reload();
    this.target.patchScene(index, { image_url: url });
  }
}
