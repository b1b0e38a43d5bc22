/**
 * The super employee (issue 32). A send stores the question and an empty answer priced at the bot's credits; the
 * answer's stream spends them, relays the chat engine's completion told the bot's prompt first, and settles as the
 * copy chat does: done keeps the charge; a failure, or a stop before any text, refunds it; a stop after some text
 * keeps what arrived and its charge. The prompt goes upstream only: no event and no call carries it.
 */
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { AvatarStatus, ChatAnswerStatus, INT32_MAX, LIMITS, MSG, type BotView, type MouthRegion } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import type { Db } from '../../infra/db';
import { ApiError } from '../../infra/http';
import { fetchObject } from '../../infra/storage';
import { publishLocalFile } from '../../infra/user-files';
import { withWorkDir } from '../../infra/work-dirs';
import { readFaceTrack } from '../../engines/lipsync';
import { resolveChatConfig } from '../../engines/chat';
import { AvatarsRepository } from '../avatars';
import { creditBalance } from '../credits';
import { ABANDONED_AFTER_SECONDS, AnswerStreams, conversationTitle, type AnswerBook, type AnswerSink, type ChargedAnswer } from '../chat';
import { VoicesRepository } from '../voices';
import { BotRepository, type BotRow, type NewBot } from './bot.repository';


/** A bot's card: its picture or its public avatar's cover and loop; never its prompt. */
export function botView(ctx: Pick<FeatureContext, 'urls'>, b: BotRow, mine: { employed: boolean; cid?: number; last_message?: string }): BotView {
  const url = (key: string) => (key ? ctx.urls.url(key) : '');
  return {
    id: b.id, type: b.type, name: b.name, desc: b.description,
    avatar: url(b.avatar_key || b.cover_key), video: url(b.loop_key), avatar_id: b.avatar_id ?? 0, voice_id: b.voice_id ?? 0,
    welcome: b.welcome, credits: b.credits, employed: mine.employed ? 1 : 0, mouth: b.mouth ? (JSON.parse(b.mouth) as MouthRegion | null) : null,
    ...(mine.cid !== undefined ? { cid: mine.cid, last_message: mine.last_message ?? '' } : {}),
  };
}

type BotInput = { type?: string; name?: string; desc?: string; avatar?: string; prompt?: string; voice_id?: number; welcome?: string; credits?: number };

/** The operator's fields as stored: the avatar a public picture (copied in, checked by content) or a ready public avatar. */
export async function botFields(ctx: FeatureContext, p: BotInput): Promise<Partial<NewBot>> {
  const out: Partial<NewBot> = { type: p.type, name: p.name, description: p.desc, prompt: p.prompt, welcome: p.welcome, credits: p.credits };
  if (p.avatar !== undefined) {
    if (/^\d+$/.test(p.avatar)) {
      // Digits beyond a column id's range name no avatar (asked for, they would make the query fail).
      const avatarId = Number(p.avatar);
      const avatar = avatarId <= INT32_MAX ? await new AvatarsRepository(ctx.db).usableBy(avatarId, 0) : undefined;
      if (!avatar || avatar.user_id !== null || Number(avatar.status) !== AvatarStatus.Ready) throw new ApiError(MSG.botAvatarInvalid);
      const facesKey = (avatar as { faces_key?: string }).faces_key ?? '';
      Object.assign(out, { avatarId: avatar.id, avatarKey: '', mouth: facesKey ? JSON.stringify(await mouthRegion(ctx, facesKey)) : '' });
    } else {
      Object.assign(out, { avatarId: null, avatarKey: await publishLocalFile(ctx, p.avatar, 'image'), mouth: '' });
    }
  }
  if (p.voice_id !== undefined) {
    if (p.voice_id !== 0 && !(await new VoicesRepository(ctx.db).isPublicVoice(p.voice_id))) throw new ApiError(MSG.botVoiceInvalid);
    out.voiceId = p.voice_id || null;
  }
  return out;
}

/**
 * Where the talking screen moves the mouth: the box around the lips and down toward the chin, averaged over the frames
 * where the face was seen, as fractions of the avatar's video (the browser animates that region from the loudness).
 */
async function mouthRegion(ctx: FeatureContext, facesKey: string): Promise<MouthRegion | null> {
  return withWorkDir(ctx.config.dataDir, async (dir) => {
    const track = readFaceTrack(await fetchObject(ctx.storage, facesKey, path.join(dir, 'faces.bin')));
    const box = { left: 0, right: 0, top: 0, bottom: 0, chin: 0, n: 0 };
    for (let f = 0; f < track.frames; f++) {
      if (track.weight[f]! < 0.5) continue;
      const xs: number[] = [];
      const ys: number[] = [];
      for (let i = 48; i < 68; i++) {
        xs.push(track.points[f * 136 + 2 * i]!);
        ys.push(track.points[f * 136 + 2 * i + 1]!);
      }
      box.left += Math.min(...xs);
      box.right += Math.max(...xs);
      box.top += Math.min(...ys);
      box.bottom += Math.max(...ys);
      box.chin += track.points[f * 136 + 2 * 8 + 1]!;
      box.n++;
    }
    if (!box.n) return null;
    const [left, right, top, bottom, chin] = [box.left, box.right, box.top, box.bottom, box.chin].map((v) => v / box.n) as [number, number, number, number, number];
    const pad = (right - left) * 0.15;
    const lower = Math.min(chin, bottom + (chin - bottom) * 0.6);
    const round = (v: number) => Math.round(v * 1000) / 1000;
    return { x: round((left - pad) / track.width), y: round((top - pad / 2) / track.height), w: round((right - left + 2 * pad) / track.width), h: round((lower - top + pad / 2) / track.height) };
  });
}

/**
 * Speaks one sentence of my answer `mid` in its bot's voice (a public voice; the offline voice's default without one)
 * into an mp3 at `output`. Free, as auditions of the offline voice are: the sentence must belong to an answer of mine.
 */
export async function speakSentence(ctx: FeatureContext, userId: number, mid: number, text: string, output: string): Promise<void> {
  const bots = new BotRepository(ctx.db);
  const answer = await bots.answerBot(userId, mid);
  if (!answer) throw new ApiError(MSG.chatNotFound);
  // Only the answer's own words are spoken (no free speech synthesis of any text); while the answer is still being
  // written its stored text lags the stream, so a sentence of it is taken on trust until it is done.
  const status = Number(answer.status);
  const writing = status === ChatAnswerStatus.Pending || status === ChatAnswerStatus.Streaming;
  if (!writing && !answer.content.includes(text.trim())) throw new ApiError(MSG.botSpeechNotInAnswer);
  const bot = await bots.any(answer.bot_id);
  const voice = bot?.voice_id ? await ctx.speech.readyVoice(bot.voice_id, userId) : undefined;
  if (voice) {
    await ctx.speech.synthesize(voice, text, { rate: Number(voice.rate), volume: Number(voice.volume), pitch: Number(voice.pitch), language: '', emotion: '' }, output);
    return;
  }
  const { engine } = await ctx.speech.channelEngine('local');
  await engine.synthesize(text, undefined, { rate: 1, volume: 1, pitch: 1, language: '', emotion: '' }, output);
}
/** An answer costs its bot's credits when asked; no reasoning is relayed, as it may quote the prompt. */
const BOT_ANSWERS: AnswerBook<ChargedAnswer & { credits: number }> = {
  name: 'bot',
  store: (q) => new BotRepository(q),
  price: (a) => a.credits,
  ledger: { key: (mid) => `bot-answer:${mid}`, spend: '超级员工对话', failed: '超级员工对话失败退回', interrupted: '超级员工对话中断退回' },
  relaysReasoning: false,
};

export class BotService {
  constructor(private readonly ctx: FeatureContext) {}

  private get db(): Db {
    return this.ctx.db;
  }

  private async engine() {
    return resolveChatConfig(this.ctx.config.chat, await this.ctx.settings.all());
  }

  /** Stores the question and its empty answer; refused for a bot not mine, without an engine or the credits for one answer. */
  async send(userId: number, input: { bot_id: number; cid?: number; content: string }): Promise<{ cid: number; mid: number }> {
    const bots = new BotRepository(this.db);
    const bot = await bots.live(input.bot_id);
    if (!bot) throw new ApiError(MSG.botMissing);
    if (!(await bots.isEmployed(userId, bot.id))) throw new ApiError(MSG.botNotEmployed);
    if (!(await this.engine())) throw new ApiError(MSG.chatEngineMissing);
    return this.db.tx(async (q) => {
      if ((await creditBalance(q, userId)) < bot.credits) throw new ApiError(MSG.insufficientCredits);
      const repo = new BotRepository(q);
      let cid = input.cid;
      if (cid === undefined) cid = await repo.createConversation(userId, bot.id, conversationTitle(input.content));
      else {
        // One answer at a time per conversation: a second send waits for the first one's lock, then sees its answer.
        if (!(await repo.lockConversation(userId, bot.id, cid))) throw new ApiError(MSG.chatNotFound);
        if (await repo.answerInProgress(cid, ABANDONED_AFTER_SECONDS)) throw new ApiError(MSG.chatSendBusy);
      }
      await repo.addMessage({ cid, role: 'user', content: input.content, status: ChatAnswerStatus.Done });
      const mid = await repo.addMessage({ cid, role: 'assistant', content: '', status: ChatAnswerStatus.Pending, credits: bot.credits });
      return { cid, mid };
    });
  }

  /**
   * Streams answer `mid` into `sink` until it ends or `signal` aborts: the bot's prompt and the conversation's last
   * turns go upstream.
   */
  async streamAnswer(userId: number, ids: { cid: number; mid: number }, sink: AnswerSink, signal: AbortSignal, log: FastifyBaseLogger): Promise<void> {
    const bots = new BotRepository(this.db);
    await new AnswerStreams(this.db, BOT_ANSWERS).stream(await bots.answer(userId, ids.cid, ids.mid), {
      engine: () => this.engine(),
      request: async (engine, a) => ({
        messages: [{ role: 'system', content: await bots.prompt(a.bot_id) }, ...(await bots.turnsBefore(ids.cid, a.id, LIMITS.chatHistoryTurns))],
        options: { model: engine.model, maxTokens: 4096, temperature: 1 },
      }),
    }, sink, signal, log);
  }
}

/** Closes answers a dead process left streaming, refunding each in the transaction that ends it (as the copy chat's). */
export async function closeAbandonedAnswers(db: Db, staleSeconds = ABANDONED_AFTER_SECONDS): Promise<number> {
  return new AnswerStreams(db, BOT_ANSWERS).closeAbandoned(staleSeconds);
}
