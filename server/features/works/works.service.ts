/**
 * What the works routes, the render job and multi-scene works share: the speech a work will use, the avatar it
 * shows, reserving its credits, fetching its inputs, and the one call into a video engine.
 */
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { AvatarStatus, MSG } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import type { Queryable } from '../../infra/db';
import type { FeatureContext } from '../../app-context';
import { renderTalkingVideo } from '../../engines/video/local-engine';
import { renderLipSync } from '../../engines/lipsync';
import type { SpeechParams } from '../../engines/speech/speech-engine';
import { InsufficientCreditsError, spendIn } from '../credits';
import { AvatarsRepository } from '../avatars';
import { WorksRepository } from './works.repository';

/** A work that cannot render (an input was deleted, its engine is gone): it fails at once, credits returned. */
export class WorkCannotRender extends Error {}

export interface RenderedWork {
  file: string;
  ext: 'mp4' | 'mp3';
  duration: number;
  coverKey: string;
  /** Why the mouth was left as filmed (lip-sync channel, no usable face), for the work's card. */
  note?: string;
}

/** The voice's saved speed/volume/pitch, unless the request carries its own (the public-voice tab sends them). */
export function speechSettings(voice: { rate: number; volume: number; pitch: number }, given: { rate?: number; volume?: number; pitch?: number; language?: string; emotion?: string }): SpeechParams {
  return {
    rate: given.rate ?? Number(voice.rate),
    volume: given.volume ?? Number(voice.volume),
    pitch: given.pitch ?? Number(voice.pitch),
    language: given.language ?? '',
    emotion: given.emotion ?? '',
  };
}

/** The user's own audio file behind a file id or a material id; else the spec's message. */
export async function ownAudio(q: Queryable, userId: number, ref: { fileId?: number; materialId?: number }) {
  const file = await new WorksRepository(q).ownFile(userId, ref);
  if (!file || file.kind !== 'voice') throw new ApiError(MSG.audioFileRequired);
  return file;
}

/** A ready avatar the user may appear as (own or public); else the spec's message. */
export async function readyAvatar(q: Queryable, id: number, userId: number) {
  const avatar = await new AvatarsRepository(q).usableBy(id, userId);
  if (!avatar) throw new ApiError(MSG.avatarRequired);
  if (Number(avatar.status) !== AvatarStatus.Ready) throw new ApiError(MSG.avatarNotReady);
  return avatar;
}

/**
 * Inside a work's submitting transaction: reserves its credits (MSG.insufficientCredits when short, which rolls
 * everything back) and queues its render, which runs only if the transaction commits.
 */
export async function reserveAndQueue(ctx: FeatureContext, q: Queryable, work: { userId: number; workId: number; amount: number; action: string }): Promise<number> {
  if (work.amount > 0) {
    try {
      const spend = await spendIn(q, { userId: work.userId, amount: work.amount, action: work.action, key: `work:${work.workId}` });
      await new WorksRepository(q).setSpendEntry(work.workId, spend.entryId);
    } catch (err) {
      if (err instanceof InsufficientCreditsError) throw new ApiError(MSG.insufficientCredits);
      throw err;
    }
  }
  await ctx.queue.send('work-render', { workId: work.workId }, {}, q);
  return work.workId;
}

/** Copies a stored object into the job's directory (inputs of ffmpeg must be local files). */
export async function fetchObject(ctx: FeatureContext, key: string, file: string): Promise<string> {
  await pipeline(ctx.storage.get(key), fs.createWriteStream(file));
  return file;
}

/** Speech for a text: the voice (own or public, still usable) through its channel's engine. */
export async function speak(ctx: FeatureContext, userId: number, spec: { voice_id: number } & SpeechParams, text: string, output: string): Promise<string> {
  const voice = await ctx.speech.readyVoice(spec.voice_id, userId);
  if (!voice) throw new WorkCannotRender('所选声音已不可用，积分已退回');
  await ctx.speech.synthesize(voice, text, spec, output);
  return output;
}

/** What the offline lip-sync engine gets: the avatar's normalized video and its face track, or why there is none. */
export type LipSyncInput = { video: string; faces: string } | { note: string };

/** What a video engine gets: the avatar's clip, the speech, where to write the mp4. */
export interface TalkingVideoJob {
  /** The avatar's pre-encoded loop (local files, in the job's directory). */
  loop: string;
  audio: { file: string; ext: string };
  output: string;
  /** Whole seconds into the loop to start from (multi-scene random drive). */
  startAt?: number;
  /** For the lip-sync engine only. */
  lipSync?: LipSyncInput;
}

/**
 * The one place a work meets a video engine: the channel's `engine` names which one renders. `note` says why
 * the mouth was left as filmed (the lip-sync engine found no usable face), for the work's card.
 */
export async function renderWithEngine(engine: string, job: TalkingVideoJob): Promise<{ duration: number; note?: string }> {
  switch (engine) {
    case 'local':
      return renderTalkingVideo(job.loop, job.audio.file, job.audio.ext, job.output, { startAt: job.startAt });
    case 'lipsync': {
      const input = job.lipSync;
      if (input && 'faces' in input) {
        const { duration } = await renderLipSync({ video: input.video, faces: input.faces, audio: job.audio.file, audioExt: job.audio.ext, output: job.output, startAt: job.startAt });
        return { duration };
      }
      const looped = await renderTalkingVideo(job.loop, job.audio.file, job.audio.ext, job.output, { startAt: job.startAt });
      return { ...looped, note: input?.note ?? MSG.lipSyncNoFace };
    }
    default:
      throw new WorkCannotRender('该通道的视频引擎不可用，积分已退回');
  }
}
