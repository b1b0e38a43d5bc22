import { BehaviorSubject, type Observable } from 'rxjs';
import { API, LIMITS, MSG, type BotMessage, type BotView } from '../../contract';

/** The offline lip-sync channel (本地口型): its mouth moves on any machine. */
const LIP_CHANNEL = 'lip';
import { followAnswer, OpenScreen, readAnswer, RemoteStore, screenStates, type ScreenServices } from '../../core';
import { lastSentence, takeSentences } from './sentences';
import { Speaker } from './speaker';
import { VoiceTalk } from './voice-input';

export const EmployeeStateToken = Symbol.for('employee.State');
export const EMPLOYEE_ROUTE = '/employee';
export const TALKING_ROUTE = '/employee/talking';

/** /employee: my employees (cards) and the 招聘 catalogue by category; employ; open a conversation. */
export class OfficeScreen extends OpenScreen {
  readonly mine: RemoteStore<BotView[]>;
  readonly types: RemoteStore<{ name: string; count: number }[]>;
  readonly catalogue: RemoteStore<BotView[]>;
  /** The catalogue's category ('' for all). */
  readonly type$ = new BehaviorSubject('');
  readonly employing$ = new BehaviorSubject<number | null>(null);

  constructor(
    private readonly s: ScreenServices,
    closed$?: Observable<unknown>,
  ) {
    super();
    const { api } = s;
    this.mine = new RemoteStore((signal) => api.call(API.bot.botList, { mine: 1 }, { signal }).then((r) => r.list));
    this.types = new RemoteStore((signal) => api.call(API.bot.typeList, {}, { signal }).then((r) => r.list));
    this.catalogue = new RemoteStore((signal) => api.call(API.bot.botList, { type: this.type$.value || undefined }, { signal }).then((r) => r.list));
    this.ownAndLoad(closed$, [this.mine, this.types, this.catalogue]);
  }

  pickType(type: string): void {
    this.type$.next(type);
    this.catalogue.reload({ clear: true });
  }

  /** Free and idempotent: the bot joins my employees. */
  async employ(bot: BotView): Promise<void> {
    this.employing$.next(bot.id);
    try {
      await this.s.api.call(API.bot.employ, { bot_id: bot.id });
      this.s.notifier.success(`已聘用「${bot.name}」`);
      this.mine.reload();
      this.catalogue.update((list) => list.map((b) => (b.id === bot.id ? { ...b, employed: 1 } : b)));
    } catch {
      // the ApiClient has said why
    } finally {
      this.employing$.next(null);
    }
  }

  talk(bot: BotView): void {
    this.s.navigation.navigate(TALKING_ROUTE, { bot: bot.id, cid: bot.cid || undefined });
  }
}

export interface TalkLine {
  key: string;
  role: 'user' | 'assistant';
  content: string;
  mid?: number;
  streaming?: boolean;
  error?: string;
}

const lineOf = (m: BotMessage): TalkLine => ({ key: `m${m.id}`, role: m.role, content: m.content, mid: m.id, error: m.error });

/** /employee/talking?bot=&cid=: face to face with one employee; the answer shows as text and is spoken sentence by sentence. */
export class TalkingScreen extends OpenScreen {
  readonly bot: RemoteStore<BotView | null>;
  readonly lines$ = new BehaviorSubject<TalkLine[]>([]);
  readonly input$ = new BehaviorSubject('');
  readonly phase$ = new BehaviorSubject<'idle' | 'sending' | 'streaming'>('idle');
  readonly speaker: Speaker;
  /** Hold to talk: what is heard is sent as the message. */
  readonly voice: VoiceTalk;
  /** The answer being made into a video. */
  readonly making$ = new BehaviorSubject<string | null>(null);
  private cid: number | undefined;
  private stream: AbortController | null = null;

  constructor(
    private readonly s: ScreenServices,
    closed$?: Observable<unknown>,
  ) {
    super();
    const query = s.navigation.current.query;
    const botId = Number(query.bot) || 0;
    this.cid = Number(query.cid) || undefined;
    this.speaker = new Speaker(() => s.tokens.get() ?? '');
    this.bot = new RemoteStore((signal) => s.api.call(API.bot.botList, { mine: 1 }, { signal }).then((r) => r.list.find((b) => b.id === botId) ?? null));
    this.voice = new VoiceTalk(s, async (text) => {
      if (!this.bot.value) return;
      this.input$.next(text);
      await this.send(this.bot.value);
    });
    this.life.add(() => this.stream?.abort());
    this.life.add(() => this.speaker.dispose());
    this.life.add(() => this.voice.dispose());
    this.ownAndLoad(closed$, [this.bot, this.voice.hearing]);
    if (this.cid) void this.loadConversation(this.cid);
  }

  private async loadConversation(cid: number): Promise<void> {
    try {
      const { list } = await this.s.api.call(API.bot.messageList, { cid });
      this.lines$.next(list.map(lineOf));
    } catch {
      this.cid = undefined;
    }
  }

  /** Sends the input; the answer streams in as text and each finished sentence is spoken at once. */
  async send(bot: BotView): Promise<void> {
    const content = this.input$.value.trim();
    if (!content || this.phase$.value !== 'idle') return;
    this.phase$.next('sending');
    this.speaker.stop();
    let ids: { cid: number; mid: number };
    try {
      ids = await this.s.api.call(API.bot.sendMessage, { bot_id: bot.id, cid: this.cid, content });
    } catch {
      this.phase$.next('idle');
      return;
    }
    this.cid = ids.cid;
    this.input$.next('');
    this.lines$.next([...this.lines$.value, { key: `q${ids.mid}`, role: 'user', content }, { key: `a${ids.mid}`, role: 'assistant', content: '', mid: ids.mid, streaming: true }]);
    this.phase$.next('streaming');
    const controller = new AbortController();
    this.stream = controller;
    let text = '';
    let spoken = 0;
    const patch = (change: (l: TalkLine) => TalkLine) => this.lines$.next(this.lines$.value.map((l, i, all) => (i === all.length - 1 ? change(l) : l)));
    const max = LIMITS.bot.sentenceMaxChars;
    const url = `${API.bot.stream.path}?${new URLSearchParams({ token: this.s.tokens.get() ?? '', cid: String(ids.cid), mid: String(ids.mid) })}`;
    await followAnswer(
      { ...this.s, read: readAnswer },
      url,
      controller.signal,
      (e) => {
        text += e.message;
        const { sentences, next } = takeSentences(text, spoken, max);
        spoken = next;
        for (const sentence of sentences) this.speaker.say(ids.mid, sentence);
        patch((l) => ({ ...l, content: text, error: e.error ?? l.error }));
      },
      (message) => patch((l) => ({ ...l, error: message })),
    );
    const rest = lastSentence(text, spoken, max);
    if (rest && !controller.signal.aborted) this.speaker.say(ids.mid, rest);
    patch((l) => ({ ...l, streaming: false }));
    this.stream = null;
    this.phase$.next('idle');
    void this.s.auth.refreshProfile().catch(() => undefined);
  }

  /** Stop: the answer's stream closes (what arrived stays) and the voice falls silent. */
  stop(): void {
    this.stream?.abort();
    this.speaker.stop();
  }

  /** Speaks an earlier answer again. */
  replay(line: TalkLine): void {
    if (!line.mid) return;
    this.speaker.stop();
    const { sentences, next } = takeSentences(line.content, 0, LIMITS.bot.sentenceMaxChars);
    const rest = lastSentence(line.content, next, LIMITS.bot.sentenceMaxChars);
    for (const sentence of [...sentences, ...(rest ? [rest] : [])]) this.speaker.say(line.mid, sentence);
  }

  /** 生成视频 needs the bot's public avatar and public voice; the work renders on the offline lip-sync channel. */
  canMakeVideo(bot: BotView): boolean {
    return bot.avatar_id > 0 && bot.voice_id > 0;
  }

  /** 生成视频: the answer becomes a lip-synced work of the bot's avatar and voice, at the channel's usual price. */
  async makeVideo(bot: BotView, line: TalkLine): Promise<void> {
    if (!this.canMakeVideo(bot) || !line.content) return;
    this.making$.next(line.key);
    try {
      await this.s.api.call(API.works.create, {
        name: `${bot.name}·${[...line.content].slice(0, 12).join('')}`, drive: 'text', text: line.content, api: LIP_CHANNEL,
        video_id: bot.avatar_id, user_voice_id: bot.voice_id,
      });
      this.s.notifier.success(MSG.submitAlert);
      void this.s.auth.refreshProfile().catch(() => undefined);
    } catch {
      // the ApiClient has said why (too few credits, a script too long …)
    } finally {
      this.making$.next(null);
    }
  }

  back(): void {
    this.s.navigation.navigate(EMPLOYEE_ROUTE);
  }
}

/** Makes the state of the two employee screens. */
export const EmployeeState = screenStates({ office: OfficeScreen, talk: TalkingScreen });
export type EmployeeState = InstanceType<typeof EmployeeState>;
