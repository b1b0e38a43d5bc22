/**
 * Super replica (issue 30). Personas and products are plain records. Everything the chat engine answers is paid like
 * a chat answer: charged first, the JSON asked for and checked (once more when it does not fit), and given back when
 * the answer is refused or the engine fails. A video analysis reserves the copy extraction's price too, and its job
 * reads the copy as copy extraction does (readVideoCopy), then asks for the analysis; a failure refunds it all.
 */
import { randomUUID } from 'node:crypto';
import { LIMITS, MSG, REPLICA_VIDEO_CREDITS, ReplicaStatus, type PersonaDraft } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { ApiError } from '../../infra/http';
import { JobRefused, runPaidJob } from '../../infra/paid-job';
import type { JobRun } from '../../infra/queue';
import { deleteObjects, storeUserFile } from '../../infra/user-files';
import { withWorkDir } from '../../infra/work-dirs';
import { AsrFailed } from '../../engines/asr';
import { ParseFailed, parserFromSettings, type ParsedProfile } from '../../engines/parse';
import { askJson, ChatAnswerInvalid, ChatEngineError, OpenAiCompatibleChat, resolveChatConfig, type ChatMessage } from '../../engines/chat';
import { readVideoCopy, submittedVideo } from '../copywrite';
import { refundIn, spendOrRefuse } from '../credits';
import { addCharged, failCharged, fetchFailureReason, linkIn } from '../extraction';
import { UploadRepository } from '../upload';
import { profileText, readVideoAnalysis, videoAnalysisAsk, type ProductBrief } from './replica.prompts';
import { ReplicaRepository, type ProductRow, type VideoRow } from './replica.repository';

const ANALYSIS_ACTION = '超级复刻·视频分析';

/** The chat engine, or the user's message that there is none. */
async function chatEngine(ctx: FeatureContext): Promise<OpenAiCompatibleChat | undefined> {
  const config = resolveChatConfig(ctx.config.chat, await ctx.settings.all());
  return config ? new OpenAiCompatibleChat(config) : undefined;
}

async function requireChat(ctx: FeatureContext): Promise<OpenAiCompatibleChat> {
  const engine = await chatEngine(ctx);
  if (!engine) throw new ApiError(MSG.replicaChatMissing);
  return engine;
}

/** Why a chat failure is refused, in the user's words. */
function chatFailure(err: unknown): string | undefined {
  if (err instanceof ChatAnswerInvalid) return MSG.replicaAnswerInvalid;
  if (err instanceof ChatEngineError) return err.message;
  return undefined;
}

/**
 * One chat answer, paid: charges LIMITS.chatAnswerCredits, asks for the JSON `read` accepts and answers it; a refused
 * answer (or any failure) gives the credits back and answers the user why.
 */
export async function paidAnswer<T>(ctx: FeatureContext, userId: number, action: string, messages: ChatMessage[], read: (json: unknown) => T | undefined): Promise<T> {
  const engine = await requireChat(ctx);
  const key = `replica:${randomUUID()}`;
  const spendEntryId = (await ctx.db.tx((q) => spendOrRefuse(q, { userId, amount: LIMITS.chatAnswerCredits, action, key }))).entryId;
  try {
    return await askJson(engine, messages, read, { temperature: 0.8, maxTokens: 4096 });
  } catch (err) {
    await ctx.db.tx((q) => refundIn(q, { userId, spendEntryId, amount: LIMITS.chatAnswerCredits, action: `${action}失败退回`, key: `${key}:failed` }));
    const why = chatFailure(err);
    if (why) throw new ApiError(MSG.replicaFailed(why));
    throw err;
  }
}

/**
 * What an account analysis reads: the profile the link-parse engine reads from the link (name, bio, followers,
 * latest posts with their likes), then what the user pasted. The link goes to the operator's engine, not to us,
 * but it is held to the same rules as any link a user gives (no private addresses).
 */
export async function accountSource(ctx: FeatureContext, p: { description?: string; link?: string }): Promise<string> {
  const pasted = p.description ?? '';
  if (!p.link) return pasted;
  const link = linkIn(ctx, p.link, MSG.replicaProfileLinkMissing);
  const parser = parserFromSettings(await ctx.settings.all());
  if (!parser?.readProfile) throw new ApiError(MSG.replicaProfileUnavailable);
  let profile: ParsedProfile;
  try {
    profile = await parser.readProfile(link);
  } catch (err) {
    if (err instanceof ParseFailed) throw new ApiError(err.message);
    throw err;
  }
  return [profileText(profile), pasted].filter(Boolean).join('\n\n【补充】').slice(0, LIMITS.replica.descriptionMaxChars);
}

/** The user's persona, or the message that it is gone. */
export async function ownPersona(ctx: FeatureContext, userId: number, id: number): Promise<PersonaDraft> {
  const persona = await new ReplicaRepository(ctx.db).persona(id, userId);
  if (!persona) throw new ApiError(MSG.replicaPersonaMissing);
  return persona;
}

export const productBriefOf = (p: ProductRow): ProductBrief => ({ ...p, price: Number(p.price) });

/** The user's product when one is asked for; the message that it is gone when it is not theirs. */
export async function ownProduct(ctx: FeatureContext, userId: number, id: number | undefined): Promise<ProductBrief | undefined> {
  if (id === undefined) return undefined;
  const product = await new ReplicaRepository(ctx.db).product(id, userId);
  if (!product) throw new ApiError(MSG.replicaProductMissing);
  return productBriefOf(product);
}

/** The picture's file id when it is the user's image (undefined: none asked for). */
export async function ownImage(ctx: FeatureContext, userId: number, fileId: number | undefined): Promise<number | null> {
  if (fileId === undefined) return null;
  if (!(await new UploadRepository(ctx.db).ownImageKey(fileId, userId))) throw new ApiError(MSG.replicaImageMissing);
  return fileId;
}

const CHARGE = { credits: REPLICA_VIDEO_CREDITS, action: ANALYSIS_ACTION, key: (id: number) => `replica-video:${id}` };

/** Records, charges and queues a video analysis; answers its id. */
export async function submitVideo(ctx: FeatureContext, userId: number, s: { type: number; link?: string; fileId?: number }): Promise<number> {
  const video = await submittedVideo(ctx, userId, s);
  await requireChat(ctx);
  return addCharged(ctx, { ...CHARGE, userId }, {
    add: (q) => new ReplicaRepository(q).addVideo(video),
    setSpend: (q, id, entryId) => new ReplicaRepository(q).setSpend(id, entryId),
    queue: (q, id) => ctx.queue.send('replica-analyse', { videoId: id }, { runsUpToSeconds: 20 * 60 }, q),
  });
}

/** Deletes the user's analysis and its cover; false when there is none. */
export async function removeVideo(ctx: FeatureContext, id: number, userId: number): Promise<boolean> {
  const removed = await new ReplicaRepository(ctx.db).removeVideo(id, userId);
  if (!removed) return false;
  await deleteObjects(ctx, [removed.cover_key]);
  return true;
}

/** Fails an analysis once with the user's reason and gives its credits back. */
async function failVideo(ctx: FeatureContext, id: number, why: string): Promise<void> {
  await failCharged(ctx, { ...CHARGE, id }, (q) => new ReplicaRepository(q).failVideo(id, MSG.replicaFailed(why)));
}

const OPEN: number[] = [ReplicaStatus.Queued, ReplicaStatus.Running];

/** The analysis job, through the paid-job runner: a record no longer open (done, failed, deleted) is left alone. */
export function runVideoAnalysis(ctx: FeatureContext, videoId: number, job: JobRun): Promise<void> {
  return runPaidJob(job, {
    load: () => new ReplicaRepository(ctx.db).video(videoId),
    isOpen: (r) => OPEN.includes(Number(r.status)),
    run: (r) => withWorkDir(ctx.config.dataDir, (dir) => analyseVideo(ctx, r, dir)),
    fail: (r, why) => failVideo(ctx, r.id, why),
    // A refused answer, an engine's lasting refusal, a link that cannot be fetched: no retry changes them.
    permanent: (err) =>
      err instanceof ChatAnswerInvalid ? MSG.replicaAnswerInvalid
      : err instanceof ChatEngineError && !err.transient ? err.message
      : err instanceof AsrFailed && !err.transient ? err.message
      : fetchFailureReason(err),
    lastReason: (err) => chatFailure(err) ?? (err instanceof AsrFailed ? err.message : MSG.replicaFailedUnknown),
  });
}

async function analyseVideo(ctx: FeatureContext, r: VideoRow, dir: string): Promise<void> {
  const repo = new ReplicaRepository(ctx.db);
  await repo.startVideo(r.id);
  let { segments, title } = r;
  // A retry after the copy was read asks the chat engine again without reading the video twice.
  if (!segments.length) {
    const read = await readVideoCopy(ctx, { userId: r.user_id, way: r.way, link: r.link, fileId: r.file_id }, dir);
    const coverKey = (await storeUserFile(ctx, r.user_id, read.cover, 'jpg', 'image')).key;
    // A record deleted (or failed) meanwhile does not own the cover: it goes at once.
    if (!(await repo.keepCopy(r.id, { ...read, coverKey }))) return deleteObjects(ctx, [coverKey]);
    ({ segments } = read);
    title = read.title || title;
  }
  const engine = await chatEngine(ctx);
  if (!engine) throw new JobRefused(MSG.replicaChatMissing);
  const analysis = await askJson(engine, videoAnalysisAsk(segments, title), readVideoAnalysis, { temperature: 0.4, maxTokens: 4096 });
  await repo.succeedVideo(r.id, analysis);
}
