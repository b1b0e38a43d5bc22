/**
 * One-click submission: the storyboard checked against what the user may use (a ready avatar or a photo-speak picture,
 * a usable voice, their pictures, a channel with an engine), priced (avatar seconds at the channel's credits, B-roll seconds at the
 * multi-scene rate, estimated at the voice's speed), and in one transaction: the work (on /works, tab 一键成片), its
 * reservation, its render job and its project.
 */
import { AvatarStatus, LIMITS, MSG, storyScript, storyboardPrice, type CallParsedRequest } from '../../../src/contract';
import { resolveChatConfig } from '../../engines/chat';
import type { FeatureContext } from '../../app-context';
import { ApiError } from '../../infra/http';
import { lipSyncEngineFor } from '../../engines/lipsync';
import { AvatarsRepository } from '../avatars';
import { pictureForWork } from '../photo';
import { spendOrRefuse } from '../credits';
import { imageEngineConfig, submitImageGeneration } from '../imagegen';
import { paidAnswer } from '../replica';
import { WorksRepository, speechSettings, workBgm, type WorkParams } from '../works';
import { OneclickRepository } from './oneclick.repository';
import { renderJobSeconds } from './oneclick.jobs';
import { pictureAsk, readPicturePrompt, readScript, scriptAsk } from './oneclick.prompts';

type Submission = CallParsedRequest<typeof import('../../../src/contract').API.oneclick.create>;


export async function submitOneclick(ctx: FeatureContext, userId: number, p: Submission): Promise<number> {
  const works = new WorksRepository(ctx.db);
  const channel = await works.videoChannel(p.api);
  if (!channel || !channel.enabled) throw new ApiError(MSG.channelUnavailable);
  const engine = lipSyncEngineFor(channel.engine, channel.config);
  if (!engine) throw new ApiError(MSG.channelUnavailable);
  // Who appears in the avatar scenes: a photo-speak picture (on a channel of this machine, as the photo feature says),
  // or a ready avatar video (any channel: a remote engine renders it over the whole speech).
  let face: { avatarId: number | null; photoId?: number; photoType?: number };
  if (p.photo_id !== undefined) face = { avatarId: null, ...(await pictureForWork(ctx.db, userId, p.photo_id, engine)) };
  else {
    const avatar = await new AvatarsRepository(ctx.db).usableBy(p.video_id!, userId);
    if (!avatar) throw new ApiError(MSG.avatarRequired);
    if (Number(avatar.status) !== AvatarStatus.Ready) throw new ApiError(MSG.oneclickAvatarCloning);
    face = { avatarId: avatar.id };
  }
  const voice = await ctx.speech.usableVoice(ctx.db, p.user_voice_id, userId);
  const speech = { voice_id: voice.id, ...speechSettings(voice, {}) };

  const projects = new OneclickRepository(ctx.db);
  const scenes: NonNullable<WorkParams['oneclick']>['scenes'] = [];
  for (const [i, s] of p.scenes.entries()) {
    if (s.kind === 'avatar') {
      scenes.push({ text: s.text.trim(), kind: 'avatar' });
      continue;
    }
    const key = ctx.urls.keyOf(s.image_url!);
    const usable = key ? await projects.usablePicture(userId, key) : undefined;
    if (!usable) throw new ApiError(MSG.oneclickPictureUnusable(i + 1));
    scenes.push({ text: s.text.trim(), kind: 'broll', image_key: usable, motion: s.motion });
  }
  const bgm = await workBgm(ctx.db, userId, { bgm: p.bgm_id, bgm_volume: p.bgm_volume });
  const price = storyboardPrice(scenes, Number(channel.credits), speech.rate);
  const seconds = price.avatarSeconds + price.brollSeconds;
  const subtitles = p.subtitles === 1 ? { size: p.subtitle_size, position: p.subtitle_position, color: p.subtitle_color } : undefined;
  const cover = { scene: p.cover_scene, ...(p.cover_at !== undefined ? { at: p.cover_at } : {}) };
  const oneclick = { aspect: p.aspect, channel_credits: Number(channel.credits), title: p.title_card, cover, scenes };
  const params: WorkParams = { speech, estimated: true, subtitles, bgm, photo_id: face.photoId, oneclick };

  return ctx.db.tx(async (q) => {
    const inTx = new WorksRepository(q);
    const workId = await inTx.add({
      userId, name: p.name, api: p.api, isMulti: false, onlyAudio: false, avatarId: face.avatarId, photoType: face.photoType, audioFileId: null,
      // The works row's price is the channel's per second (whole credits); the job settles on the scenes' own rates.
      text: storyScript(scenes), params, price: Number(channel.credits), reserved: price.credits, oneclick: true,
    });
    const spend = await spendOrRefuse(q, { userId, amount: price.credits, action: `一键成片·${channel.name}`, key: `work:${workId}` });
    await inTx.setSpendEntry(workId, spend.entryId);
    const project = new OneclickRepository(q);
    const draft = JSON.stringify({
      name: p.name, aspect: p.aspect, video_id: p.video_id, photo_id: p.photo_id, user_voice_id: p.user_voice_id, api: p.api, subtitles: p.subtitles,
      bgm_id: p.bgm_id ?? '', bgm_volume: p.bgm_volume, title_card: p.title_card, cover_scene: p.cover_scene, cover_at: p.cover_at, scenes: p.scenes,
    });
    const projectId = p.project_id ?? (await project.save(userId, { name: p.name, draft, sceneCount: scenes.length }));
    if (projectId === undefined || !(await project.setWork(projectId, userId, workId))) throw new ApiError(MSG.oneclickProjectMissing);
    // A remote engine's chain re-queues itself run by run (each short); a render here runs in one.
    const engineSeconds = engine.kind === 'local' ? engine.renderJobSeconds(seconds) : undefined;
    await ctx.queue.send('oneclick-render', { workId }, { runsUpToSeconds: renderJobSeconds(engineSeconds, seconds) }, q);
    return workId;
  });
}

/** The draft's scene count, for history (a draft that is not the editor's shape counts none). */
export function draftSceneCount(draft: string): number {
  const scenes = (JSON.parse(draft) as { scenes?: unknown }).scenes;
  return Array.isArray(scenes) ? Math.min(scenes.length, LIMITS.oneclick.maxScenes * 10) : 0;
}

type API_ = typeof import('../../../src/contract').API.oneclick;

/** Which engines this site has: the copywriting chat engine (生成文案, picture prompts) and text to image (生成配图). */
export async function oneclickEngines(ctx: FeatureContext): Promise<{ chat: boolean; image: boolean }> {
  const settings = await ctx.settings.all();
  return { chat: resolveChatConfig(ctx.config.chat, settings) !== null, image: (await imageEngineConfig(ctx)) !== null };
}

/** 生成文案: a script for the topic, paid as one chat answer (refunded when refused). */
export async function writeScript(ctx: FeatureContext, userId: number, p: CallParsedRequest<API_['script']>): Promise<{ title: string; script: string }> {
  if (!(await oneclickEngines(ctx)).chat) throw new ApiError(MSG.oneclickChatMissing);
  return paidAnswer(ctx, userId, '一键成片·生成文案', scriptAsk(p), readScript);
}

/**
 * 生成配图 for one B-roll scene: both engines are checked before anything is paid; the chat engine's prompt (a chat
 * answer) then becomes a one-picture text-to-image record, paid and rendered as 文生图's (refunded if it fails).
 */
export async function scenePicture(ctx: FeatureContext, userId: number, p: CallParsedRequest<API_['picture']>): Promise<{ id: number; prompt: string }> {
  const engines = await oneclickEngines(ctx);
  if (!engines.image) throw new ApiError(MSG.oneclickImageMissing);
  if (!engines.chat) throw new ApiError(MSG.oneclickChatMissing);
  const prompt = await paidAnswer(ctx, userId, '一键成片·配图描述', pictureAsk(p.text, p.aspect), readPicturePrompt);
  const id = await submitImageGeneration(ctx, userId, { text: prompt, ratio: p.aspect, num: 1 });
  return { id, prompt };
}
