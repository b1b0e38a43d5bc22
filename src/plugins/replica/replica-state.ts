import { BehaviorSubject, type Observable } from 'rxjs';
import {
  API, CopywriteType, LIMITS, MSG, videoSource, type AccountAnalysis, type CallResponse, type Persona, type PersonaDraft, type Product, type ReplicaVideo,
  type ScriptStyle, type ScriptVariant, type TopicIdea,
} from '../../contract';
import { DeletionFlow, OpenScreen, openInCreate, openInOneclick, RemoteStore, runBusy, SharedVideoJobs, screenStates, type ScreenServices, type UploadedFile } from '../../core';
import { isOpen, VIDEO_ROUTE, type ProductForm } from './replica-view';

export const ReplicaStateToken = Symbol.for('replica.State');


type Engine = CallResponse<typeof API.replica.engine>;
type Videos = CallResponse<typeof API.replica.videos>;
const ALL = { page: 1, limit: 100 };

/** What every screen shows: whether the chat engine is there, my personas and products (for pickers). */
class ReplicaScreen extends OpenScreen {
  readonly engine: RemoteStore<Engine>;
  readonly personas: RemoteStore<CallResponse<typeof API.replica.personas>>;
  readonly products: RemoteStore<CallResponse<typeof API.replica.products>>;
  /** The persona and product the answers are written for (0: none chosen). */
  readonly personaId$ = new BehaviorSubject(0);
  readonly productId$ = new BehaviorSubject(0);
  readonly busy$ = new BehaviorSubject(false);

  constructor(
    protected readonly s: ScreenServices,
    closed$: Observable<unknown> | undefined,
  ) {
    super();
    this.engine = new RemoteStore((signal) => s.api.call(API.replica.engine, {}, { silent: true, signal }));
    this.personas = new RemoteStore((signal) => s.api.call(API.replica.personas, ALL, { silent: true, signal }));
    this.products = new RemoteStore((signal) => s.api.call(API.replica.products, ALL, { silent: true, signal }));
    // The first persona is chosen once they load.
    this.life.add(this.personas.remote$.subscribe(() => {
      const first = this.personas.value?.list[0];
      if (first && !this.personas.value?.list.some((p) => p.id === this.personaId$.value)) this.personaId$.next(first.id);
    }));
    this.ownAndLoad(closed$, [this.engine, this.personas, this.products]);
  }

  /** The chosen persona, or the message to choose one (said). */
  protected chosen(): { persona_id: number; product_id?: number } | null {
    if (!this.personaId$.value) {
      this.s.notifier.error(MSG.replicaPersonaRequired);
      return null;
    }
    return { persona_id: this.personaId$.value, ...(this.productId$.value ? { product_id: this.productId$.value } : {}) };
  }

  /** A paid call: busy while it runs, the credits shown afresh after. */
  protected async paid<T>(work: () => Promise<T>): Promise<T | undefined> {
    let out: T | undefined;
    const ok = await runBusy(this.busy$, async () => {
      out = await work();
    });
    void this.s.auth.refreshProfile().catch(() => undefined);
    return ok ? out : undefined;
  }

  goCreate(text: string): void {
    openInCreate(this.s, text);
  }

  /** 一键成片: the script opens in one-click creation, ready to become a storyboard. */
  goOneclick(text: string): void {
    openInOneclick(this.s, text);
  }
}

/** Variants of a kept script, editable before they go to /create; an edit is kept on the server with 保存. */
export class Variants {
  readonly list$ = new BehaviorSubject<ScriptVariant[]>([]);
  /** The texts as the server keeps them, to tell an edit apart. */
  readonly saved$ = new BehaviorSubject<string[]>([]);
  readonly busy$ = new BehaviorSubject(false);
  private scriptId = 0;

  constructor(private readonly s?: Pick<ScreenServices, 'api' | 'notifier'>) {}

  /** The variants shown, and the kept script they are (0: none). */
  set(list: ScriptVariant[], scriptId = 0): void {
    this.scriptId = scriptId;
    this.list$.next(list);
    this.saved$.next(list.map((v) => v.text));
  }
  edit(index: number, text: string): void {
    this.list$.next(this.list$.value.map((v, i) => (i === index ? { ...v, text } : v)));
  }
  /** Whether variant `index` differs from what is kept (and can be kept). */
  changed(list: ScriptVariant[], saved: string[], index: number): boolean {
    return !!this.s && this.scriptId > 0 && list[index]?.text !== saved[index];
  }
  async save(index: number): Promise<void> {
    const text = this.list$.value[index]?.text.trim();
    if (!this.s || !this.scriptId) return;
    if (!text) return this.s.notifier.error(MSG.replicaScriptTextRequired);
    const s = this.s;
    if (await runBusy(this.busy$, () => s.api.call(API.replica.scriptEdit, { id: this.scriptId, index, text }))) {
      this.saved$.next(this.saved$.value.map((t, i) => (i === index ? text : t)));
      s.notifier.success(MSG.saveSucceeded);
    }
  }
}

/** A CRUD list of personas or products with its form (null: closed; an id: editing that one). */
export abstract class RecordsScreen<T extends { id: number }, F> extends ReplicaScreen {
  readonly form$ = new BehaviorSubject<{ id?: number; value: F } | null>(null);
  readonly saving$ = new BehaviorSubject(false);
  abstract readonly deletion: DeletionFlow<T>;
  protected abstract empty: () => F;
  protected abstract formOf: (item: T) => F;
  protected abstract send: (form: { id?: number; value: F }) => Promise<unknown>;
  protected abstract reloadList: () => void;

  add(): void {
    this.form$.next({ value: this.empty() });
  }
  edit(item: T): void {
    this.form$.next({ id: item.id, value: this.formOf(item) });
  }
  change(patch: Partial<F>): void {
    const f = this.form$.value;
    if (f) this.form$.next({ ...f, value: { ...f.value, ...patch } });
  }
  close(): void {
    this.form$.next(null);
  }
  async save(): Promise<boolean> {
    const f = this.form$.value;
    if (!f) return false;
    if (!(await runBusy(this.saving$, () => this.send(f)))) return false;
    this.s.notifier.success(MSG.saveSucceeded);
    this.form$.next(null);
    this.reloadList();
    return true;
  }
}

export class PersonasScreen extends RecordsScreen<Persona, PersonaDraft> {
  readonly deletion = new DeletionFlow<Persona>(this.s.notifier, (p) => this.s.api.call(API.replica.personaRemove, { id: p.id }), () => this.personas.reload());
  protected empty = (): PersonaDraft => ({ name: '', industry: '', audience: '', tone: '', selling_points: '', catchphrases: '', taboo: '' });
  protected formOf = ({ id: _id, create_time: _t, ...draft }: Persona): PersonaDraft => draft;
  protected send = (f: { id?: number; value: PersonaDraft }) => this.s.api.call(API.replica.personaSave, { ...f.value, ...(f.id ? { id: f.id } : {}) });
  protected reloadList = () => this.personas.reload();
}

export class ProductsScreen extends RecordsScreen<Product, ProductForm> {
  readonly deletion = new DeletionFlow<Product>(this.s.notifier, (p) => this.s.api.call(API.replica.productRemove, { id: p.id }), () => this.products.reload());
  /** The picture of the form: the one kept, or a new upload (null: none). */
  readonly image$ = new BehaviorSubject<{ id: number; url: string } | null>(null);
  readonly uploading$ = new BehaviorSubject(false);
  protected empty = (): ProductForm => ({ name: '', category: '', price: '', selling_points: '', audience: '', scenes: '' });
  protected formOf = (p: Product): ProductForm => ({ name: p.name, category: p.category, price: p.price ? String(p.price) : '', selling_points: p.selling_points, audience: p.audience, scenes: p.scenes });
  protected send = (f: { id?: number; value: ProductForm }) =>
    this.s.api.call(API.replica.productSave, { ...f.value, price: f.value.price.trim() || 0, image: this.image$.value?.id ?? 0, ...(f.id ? { id: f.id } : {}) } as never);
  protected reloadList = () => this.products.reload();

  override add(): void {
    this.image$.next(null);
    super.add();
  }
  override edit(item: Product): void {
    this.image$.next(item.image_id ? { id: item.image_id, url: item.image } : null);
    super.edit(item);
  }
  uploaded(file: UploadedFile | null): void {
    this.image$.next(file ? { id: file.file_id, url: file.url } : null);
  }
}

/** /explosiveAnalysis/video: the shared-video form, the analysis shown (polled while read), 仿写 and its variants. */
export class VideoScreen extends ReplicaScreen {
  readonly variants = new Variants(this.s);
  private readonly jobs = new SharedVideoJobs<ReplicaVideo, Videos>({
    ...this.s,
    way: CopywriteType.Upload,
    limit: LIMITS.replica.pageSize,
    byUpload: (way) => way === CopywriteType.Upload,
    list: (query, signal) => this.s.api.call(API.replica.videos, query, { silent: true, signal }),
    isOpen,
    submit: (source) => this.s.api.call(API.replica.analyseVideo, videoSource(source)),
    leaving: () => this.variants.set([]),
  });
  readonly form = this.jobs.form;
  readonly selected$ = this.jobs.selected$;
  readonly recent = this.jobs.recent;
  readonly current = this.jobs.current;

  constructor(s: ScreenServices, closed$?: Observable<unknown>) {
    super(s, closed$);
    this.ownUntil(undefined, [this.jobs]);
  }

  select(id: number): void {
    this.jobs.select(id);
  }

  start(): Promise<boolean> {
    return this.form.start();
  }

  /** 仿写 of the shown analysis for the chosen persona and product. */
  async mimic(): Promise<void> {
    const r = this.current.value;
    const chosen = this.chosen();
    if (!r || !chosen) return;
    const out = await this.paid(() => this.s.api.call(API.replica.mimic, { id: r.id, ...chosen }));
    if (out) this.variants.set(out.variants, out.id);
  }

  remove(r: ReplicaVideo): void {
    void this.s.api.call(API.replica.videoRemove, { id: r.id }).then(() => this.jobs.removed(r.id), () => undefined);
  }
}

/** /explosiveAnalysis/user: a pasted description → the account's analysis; its persona draft saved to my personas. */
export class AccountScreen extends ReplicaScreen {
  readonly link$ = new BehaviorSubject('');
  readonly description$ = new BehaviorSubject('');
  readonly result$ = new BehaviorSubject<AccountAnalysis | null>(null);
  readonly history = new RemoteStore((signal) => this.s.api.call(API.replica.accounts, { page: 1, limit: LIMITS.replica.pageSize }, { silent: true, signal }));
  readonly savedDraft$ = new BehaviorSubject(false);

  constructor(s: ScreenServices, closed$?: Observable<unknown>) {
    super(s, closed$);
    this.ownAndLoad(undefined, [this.history]);
  }

  async analyse(): Promise<void> {
    const description = this.description$.value.trim();
    const link = this.link$.value.trim();
    if (!description && !link) return this.s.notifier.error(MSG.replicaDescriptionRequired);
    const out = await this.paid(() => this.s.api.call(API.replica.analyseAccount, { ...(description ? { description } : {}), ...(link ? { link } : {}) }));
    if (!out) return;
    this.show(out.analysis);
    this.history.reload();
  }

  show(analysis: AccountAnalysis): void {
    this.result$.next(analysis);
    this.savedDraft$.next(false);
  }

  async saveDraft(): Promise<void> {
    const draft = this.result$.value?.persona;
    if (!draft) return;
    if (await runBusy(this.busy$, () => this.s.api.call(API.replica.personaSave, draft))) {
      this.s.notifier.success('已保存到我的人设');
      this.savedDraft$.next(true);
      this.personas.reload();
    }
  }
}

/** /explosiveAnalysis: topic ideas and a script for a persona and product; recent analyses and scripts. */
export class IndexScreen extends ReplicaScreen {
  readonly topics$ = new BehaviorSubject<TopicIdea[]>([]);
  readonly topic$ = new BehaviorSubject('');
  readonly seconds$ = new BehaviorSubject<number>(30);
  readonly style$ = new BehaviorSubject<ScriptStyle>('koubo');
  readonly variants = new Variants(this.s);
  readonly videos = new RemoteStore((signal) => this.s.api.call(API.replica.videos, { page: 1, limit: 5 }, { silent: true, signal }));
  readonly scripts = new RemoteStore((signal) => this.s.api.call(API.replica.scripts, { page: 1, limit: 5 }, { silent: true, signal }));

  constructor(s: ScreenServices, closed$?: Observable<unknown>) {
    super(s, closed$);
    this.ownAndLoad(undefined, [this.videos, this.scripts]);
  }

  async suggest(): Promise<void> {
    const chosen = this.chosen();
    if (!chosen) return;
    const out = await this.paid(() => this.s.api.call(API.replica.topics, chosen));
    if (out) this.topics$.next(out.list);
  }

  async generate(): Promise<void> {
    const chosen = this.chosen();
    const topic = this.topic$.value.trim();
    if (!chosen) return;
    if (!topic) return this.s.notifier.error(MSG.replicaTopicRequired);
    const out = await this.paid(() => this.s.api.call(API.replica.generate, { ...chosen, topic, seconds: this.seconds$.value, style: this.style$.value }));
    if (!out) return;
    this.variants.set(out.variants, out.id);
    this.scripts.reload();
  }

  openVideo(id: number): void {
    this.s.navigation.navigate(VIDEO_ROUTE, { id });
  }
}

/** Makes the state of each open super-replica screen. */
export const ReplicaState = screenStates({
  openPersonas: PersonasScreen,
  openProducts: ProductsScreen,
  openVideo: VideoScreen,
  openAccount: AccountScreen,
  openIndex: IndexScreen,
});
export type ReplicaState = InstanceType<typeof ReplicaState>;
