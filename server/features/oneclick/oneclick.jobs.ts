/**
 * The one-click render (job `oneclick-render`), through the paid-job runner like every work: the whole script spoken
 * once (the voice does not restart per scene), cut at the scene boundaries; the avatar scenes from an avatar video on
 * the channel's engine (the offline lip sync by default, or a remote engine), or from a photo-speak picture (see
 * Talking); each B-roll scene made by the offline camera-motion engine from its picture; every scene framed to the
 * aspect, joined, the speech laid over the whole, music ducked under it, captions burned; the cover the chosen frame. Settled on the seconds delivered (avatar seconds at the
 * channel's price, B-roll at the multi-scene rate); failed and refunded otherwise.
 */
import path from 'node:path';
import { AvatarStatus, LIMITS, WORK_IN_PROGRESS, countChars, estimateSeconds, oneclickCredits, shiftTimed, type TimedText } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { probe } from '../../infra/media-probe';
import { runPaidJob } from '../../infra/paid-job';
import { fetchObject } from '../../infra/storage';
import { withWorkDir } from '../../infra/work-dirs';
import { storeUserFile } from '../../infra/user-files';
import { FPS, burnSubtitles, frameVideo, joinSoundSpans, joinVideos, makeSmallCover, replaceSound } from '../../engines/media';
import { cameraMotionClip, motionFrames } from '../../engines/videogen';
import { LipSyncEngineError, lipSyncEngineFor } from '../../engines/lipsync';
import { loopSeconds } from '../../engines/render';
import { SpeechEngineError } from '../../engines/speech';
import { AvatarsRepository } from '../avatars';
import {
  WorkCannotRender, WorksRepository, captionsOfWork, failWork, faceInputOf, finishWork, runRemoteRender, speak, withBackgroundMusic, withSubtitles,
  type RemoteRenderUse, type RenderRow, type RenderedWork,
} from '../works';
import { PictureGone, renderPictureTalking } from '../photo';
import { OneclickRepository } from './oneclick.repository';

const TITLE_STYLE = { size: 'L', position: 'middle', color: 'yellow' } as const;

/**
 * Where each scene starts and ends in the speech: its share of the script's characters placed on the timed sentences
 * (times shared by characters inside a sentence); a boundary at a sentence's end sits in the middle of the gap after it.
 */
export function sceneBoundaries(texts: readonly string[], timed: readonly TimedText[], total: number): number[] {
  const sceneChars = texts.map((t) => countChars(t));
  const sentenceChars = timed.map((t) => countChars(t.text));
  const sceneTotal = sceneChars.reduce((a, b) => a + b, 0);
  const timedTotal = sentenceChars.reduce((a, b) => a + b, 0);
  const bounds = [0];
  let at = 0;
  for (const chars of sceneChars.slice(0, -1)) {
    at += chars;
    const target = sceneTotal > 0 ? (at * timedTotal) / sceneTotal : 0;
    bounds.push(timeAt(target, timed, sentenceChars, total));
  }
  bounds.push(total);
  // Never backwards, never a scene shorter than a frame.
  for (let i = 1; i < bounds.length; i++) bounds[i] = Math.min(total, Math.max(bounds[i]!, bounds[i - 1]! + 1 / FPS));
  return bounds;
}

function timeAt(target: number, timed: readonly TimedText[], chars: readonly number[], total: number): number {
  if (!timed.length) return 0;
  let before = 0;
  for (const [i, t] of timed.entries()) {
    const end = before + chars[i]!;
    if (target <= end + 0.5) {
      if (Math.abs(target - end) <= 0.5) return (t.end + (timed[i + 1]?.start ?? total)) / 2;
      return t.start + ((t.end - t.start) * Math.max(0, target - before)) / Math.max(1, chars[i]!);
    }
    before = end;
  }
  return total;
}

/**
 * Where the avatar scenes come from. On an avatar video with an engine of this machine, each scene is rendered over its
 * own stretch of speech (starting where the loop would be by then). A picture, or a remote engine, makes one video of
 * the avatar talking over the whole speech, which the scenes are cut from: a picture's face is analysed once and a
 * remote engine takes one task per work (its line, its slot, its polls and refund are the works' own, one row per work),
 * and one render of the whole keeps the voice and the face continuous across the cuts.
 */
type Talking = { whole: string } | { perScene: true };

interface Spoken {
  speech: { file: string; ext: string };
  timed: TimedText[];
}

/** The whole script spoken once with the work's voice, and its timed text (kept with the work). */
async function speakScript(ctx: FeatureContext, workId: number, work: RenderRow, dir: string): Promise<Spoken> {
  const speech = { file: path.join(dir, 'speech.mp3'), ext: 'mp3' };
  const spoken = await speak(ctx, work.user_id, work.params.speech!, work.text, speech.file);
  return { speech, timed: await captionsOfWork(ctx, workId, work, speech, dir, spoken) };
}

async function renderOneclick(ctx: FeatureContext, work: RenderRow, dir: string, spoken: Spoken, talking: Talking): Promise<RenderedWork & { avatarSeconds: number; brollSeconds: number }> {
  const plan = work.params.oneclick!;
  const { speech, timed } = spoken;
  const total = (await probe(speech.file, speech.ext)).duration;
  const bounds = sceneBoundaries(plan.scenes.map((s) => s.text), timed, total);
  const frames = bounds.map((b) => Math.round(b * FPS));
  const shortSide = ctx.config.renderShortSide;
  const size = motionFrames(plan.aspect, shortSide)!;
  const avatarScene = 'whole' in talking ? undefined : await perSceneAvatar(ctx, work, dir);

  const pictures = new OneclickRepository(ctx.db);
  const clips: string[] = [];
  const notes = new Set<string>();
  let avatarSeconds = 0;
  let brollSeconds = 0;
  for (const [i, scene] of plan.scenes.entries()) {
    const count = Math.max(1, frames[i + 1]! - frames[i]!);
    const seconds = count / FPS;
    const clip = path.join(dir, `clip-${i}.mp4`);
    if (scene.kind === 'broll') {
      // A picture deleted since the submit: the work cannot be made as it was priced.
      if (!scene.image_key || !(await pictures.usablePicture(work.user_id, scene.image_key))) throw new WorkCannotRender(`第${i + 1}个分镜的图片已被删除，积分已退回`);
      const ext = path.extname(scene.image_key).slice(1) || 'jpg';
      const picture = await fetchObject(ctx.storage, scene.image_key, path.join(dir, `picture-${i}.${ext}`));
      const moving = path.join(dir, `moving-${i}.mp4`);
      await cameraMotionClip({ first: { file: picture, ext }, duration: seconds, aspectRatio: plan.aspect, output: moving, motion: scene.motion, shortSide });
      await frameVideo(moving, 'mp4', size, count, clip);
      brollSeconds += seconds;
    } else {
      if ('whole' in talking) await frameVideo(talking.whole, 'mp4', size, count, clip, frames[i]! / FPS);
      else {
        const stretch = { file: path.join(dir, `stretch-${i}.wav`), ext: 'wav' };
        await joinSoundSpans(speech.file, speech.ext, [{ start: bounds[i]!, end: bounds[i + 1]! }], seconds + 1, stretch.file);
        // The scene's own lines, from its start: the engine rounds the lips where they say o, u or ü.
        const script = shiftTimed(timed.filter((t) => t.end > bounds[i]! && t.start < bounds[i + 1]!), -bounds[i]!);
        const note = await avatarScene!(i, stretch, bounds[i]!, clip, size, count, script);
        if (note) notes.add(note);
      }
      avatarSeconds += seconds;
    }
    clips.push(clip);
  }
  const joined = path.join(dir, 'joined.mp4');
  await joinVideos(clips, joined, dir);
  const withSpeech = path.join(dir, 'spoken.mp4');
  await replaceSound(joined, 'mp4', speech, total, withSpeech);
  // The title card: large yellow text in the middle of the first seconds (captions stay at their place below).
  const title = plan.title?.trim();
  const output = title ? path.join(dir, 'work.mp4') : withSpeech;
  if (title) await burnSubtitles({ file: withSpeech, ext: 'mp4' }, [{ start: 0, end: Math.min(total, LIMITS.oneclick.titleSeconds), lines: [title] }], TITLE_STYLE, output);
  const { duration } = await probe(output, 'mp4');
  const coverKey = await storeCover(ctx, work.user_id, output, coverSeconds(plan.cover, frames, duration), dir);
  return { file: output, ext: 'mp4', duration, coverKey, note: [...notes].join('；') || undefined, timed, avatarSeconds, brollSeconds };
}

/** The avatar video's scenes, each rendered on this machine's engine over its stretch of speech; answers the engine's note. */
async function perSceneAvatar(ctx: FeatureContext, work: RenderRow, dir: string) {
  const engine = lipSyncEngineFor(work.engine ?? '', work.engine_config);
  if (engine?.kind !== 'local') throw new WorkCannotRender('该通道的视频引擎不可用，积分已退回');
  const avatar = work.avatar_id ? await new AvatarsRepository(ctx.db).usableBy(work.avatar_id, work.user_id) : undefined;
  if (!avatar?.loop_key || Number(avatar.status) !== AvatarStatus.Ready) throw new WorkCannotRender('数字人已被删除，积分已退回');
  const loop = await fetchObject(ctx.storage, avatar.loop_key, path.join(dir, 'loop.mp4'));
  // Each avatar scene starts where the avatar would be by then, so cuts between its scenes do not jump back to its start.
  const loopLength = Math.max(1, Math.floor(await loopSeconds(loop)));
  const face = engine.movesMouth && work.params.oneclick!.scenes.some((s) => s.kind === 'avatar') ? await faceInputOf(ctx, work, {}, dir) : undefined;
  return async (i: number, audio: { file: string; ext: string }, start: number, clip: string, size: { width: number; height: number }, count: number, script: TimedText[]) => {
    const talking = path.join(dir, `talking-${i}.mp4`);
    const { note } = await engine.render({ loop, audio, output: talking, face, script, startAt: Math.floor(start) % loopLength });
    await frameVideo(talking, 'mp4', size, count, clip);
    return note;
  };
}

/** When the cover is taken: the chosen time (at most the last frame), else the first frame of the chosen scene. */
export function coverSeconds(cover: { scene: number; at?: number } | undefined, frames: readonly number[], duration: number): number {
  const last = Math.max(0, duration - 1 / FPS);
  if (cover?.at !== undefined) return Math.min(cover.at, last);
  const scene = Math.min(Math.max(1, cover?.scene ?? 1), frames.length - 1);
  return Math.min(frames[scene - 1]! / FPS, last);
}

/** The cover: the frame at `at` seconds of the work's picture (before its captions), stored as the work's own. */
async function storeCover(ctx: FeatureContext, userId: number, video: string, at: number, dir: string): Promise<string> {
  const cover = await makeSmallCover(video, 'mp4', path.join(dir, 'cover.jpg'), at);
  return (await storeUserFile(ctx, userId, cover, 'jpg', 'image')).key;
}

/** Renders, scores, captions and settles the work: on what was delivered (avatar seconds at the channel's price, B-roll at the multi-scene rate). */
async function completeWork(ctx: FeatureContext, workId: number, work: RenderRow, dir: string, spoken: Spoken, talking: Talking): Promise<void> {
  const { avatarSeconds, brollSeconds, ...rendered } = await renderOneclick(ctx, work, dir, spoken, talking);
  const scored = await withBackgroundMusic(ctx, work.params.bgm, rendered, dir);
  const finished = await withSubtitles(work, scored, dir);
  // finishWork charges its seconds × price, so the price is what the delivered seconds cost per second (a hair under,
  // so the ceiling lands on the credits themselves).
  const due = oneclickCredits(avatarSeconds, brollSeconds, work.params.oneclick!.channel_credits);
  await finishWork(ctx, workId, { ...work, price: (due - 1e-6) / Math.max(finished.duration, 0.001) }, finished);
}

/** How long a render job may run: the lip-sync engine's allowance for the speech plus the B-roll and the joins. */
export const renderJobSeconds = (engineSeconds: number | undefined, seconds: number) => Math.ceil((engineSeconds ?? 60) + 60 + 4 * seconds);

/** A work on a remote lip-sync engine: the works' chain (line, slot, polls) renders the avatar over the whole speech. */
const remoteUse = (ctx: FeatureContext, workId: number, work: RenderRow): RemoteRenderUse => ({
  job: 'oneclick-render',
  // The run that collects the result composes the whole storyboard here: as long as a render of it on this machine.
  runsUpToSeconds: renderJobSeconds(undefined, estimateSeconds(work.text, work.params.speech?.rate ?? 1)),
  async finish(result, task, dir) {
    // The speech the engine was given (stored by the chain's first run), and the timed text kept with the work then.
    const speech = { file: await fetchObject(ctx.storage, task.audio_key, path.join(dir, 'speech.mp3')), ext: 'mp3' };
    const timed = await captionsOfWork(ctx, workId, work, speech, dir);
    await completeWork(ctx, workId, work, dir, { speech, timed }, { whole: result.file });
  },
});

function permanentReason(err: unknown): string | undefined {
  if (err instanceof WorkCannotRender || err instanceof PictureGone) return err.message;
  const engineError = err instanceof SpeechEngineError || err instanceof LipSyncEngineError ? err : undefined;
  return engineError && !engineError.transient ? `${engineError.message}，积分已退回` : undefined;
}

export function runOneclickRender(ctx: FeatureContext, workId: number, attempt: number, step = 0): Promise<void> {
  const works = new WorksRepository(ctx.db);
  return runPaidJob({ retryCount: attempt }, {
    load: () => works.renderInput(workId),
    isOpen: (work) => (WORK_IN_PROGRESS as readonly number[]).includes(work.status) && !!work.params.oneclick,
    run: async (work) => {
      const engine = lipSyncEngineFor(work.engine ?? '', work.engine_config);
      const photoId = work.params.photo_id;
      if (engine?.kind === 'remote' && !photoId) return runRemoteRender(ctx, workId, work, engine, step, remoteUse(ctx, workId, work));
      await works.markRendering(workId);
      await withWorkDir(ctx.config.dataDir, async (dir) => {
        const spoken = await speakScript(ctx, workId, work, dir);
        let talking: Talking = { perScene: true };
        if (photoId) {
          // A photo-speak picture talks over the whole speech as the photo feature renders it, and the scenes are cut from it.
          const whole = path.join(dir, 'talking.mp4');
          await renderPictureTalking(ctx, { userId: work.user_id, photoId, engine, audio: spoken.speech, script: spoken.timed, dir }, whole);
          talking = { whole };
        }
        await completeWork(ctx, workId, work, dir, spoken, talking);
      });
    },
    fail: (work, reason) => failWork(ctx, workId, work, reason),
    permanent: permanentReason,
    lastReason: (err) => (err instanceof LipSyncEngineError ? `${err.message}，积分已退回` : '视频合成失败，积分已退回'),
  });
}
