/**
 * Multi-scene works: each scene's speech (synthesized with its voice, or its uploaded audio), then each scene's
 * video on its avatar (serial: from the clip's start; random: from a random second), joined into one mp4 — or
 * only the joined speech as one mp3. Priced per second of the result; rendered on the local video engine.
 */
import path from 'node:path';
import { API, LIMITS, MSG, estimateSeconds, type CallParsedRequest, type SceneItem } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import type { Queryable } from '../../infra/db';
import type { FeatureContext } from '../../app-context';
import type { SpeechParams } from '../../engines/speech/speech-engine';
import { concatAudio, concatVideos, loopSeconds, renderTalkingVideo } from '../../engines/video/local-engine';
import { WorkInputGone, fetchObject, ownAudio, reserveAndQueue, speak, speechSettings, type RenderRow, type RenderedWork } from './works.routes';

/** A scene as the render job needs it. */
interface StoredScene {
  audio_file_id?: number;
  text?: string;
  speech?: { voice_id: number } & SpeechParams;
  avatar_id?: number;
}

export interface MultiParams {
  drive_mode?: 'serial' | 'random';
  output_mode?: 'video' | 'audio';
  scenes?: StoredScene[];
}

async function readyAvatar(q: Queryable, id: number, userId: number): Promise<{ id: number }> {
  const { rows } = await q.query<{ id: number; status: number }>('SELECT id, status FROM avatars WHERE id = $1 AND (user_id = $2 OR user_id IS NULL)', [id, userId]);
  if (!rows[0]) throw new ApiError(MSG.avatarRequired);
  if (Number(rows[0].status) !== 3) throw new ApiError(MSG.avatarNotReady);
  return rows[0];
}

/** Checks every scene against what the user may use, and estimates the seconds it will speak. */
async function planScenes(ctx: FeatureContext, q: Queryable, userId: number, params: CallParsedRequest<typeof API.works.multi>) {
  const scenes: StoredScene[] = [];
  let seconds = 0;
  for (const scene of params.content as SceneItem[]) {
    const stored: StoredScene = {};
    if (params.output_mode === 'video') stored.avatar_id = (await readyAvatar(q, scene.video_id!, userId)).id;
    if (scene.type === 'audio') {
      const audio = await ownAudio(q, userId, { fileId: scene.file_id });
      stored.audio_file_id = audio.id;
      seconds += Number(audio.duration);
    } else {
      const voice = await ctx.speech.usableVoice(q, scene.voice_id!, userId);
      stored.text = scene.text!;
      // A text scene's preview, when the client made one, is its speech; otherwise the job synthesizes it.
      if (scene.file_id !== undefined) stored.audio_file_id = (await ownAudio(q, userId, { fileId: scene.file_id })).id;
      else stored.speech = { voice_id: voice.id, ...speechSettings(voice, scene) };
      seconds += estimateSeconds(scene.text!);
    }
    scenes.push(stored);
  }
  return { scenes, seconds };
}

export function registerMultiWorkRoutes(ctx: FeatureContext): void {
  const { router, db } = ctx;
  router.handle(API.works.multi, async ({ params, user }) =>
    db.tx(async (q) => {
      const { scenes, seconds } = await planScenes(ctx, q, user.id, params);
      const price = LIMITS.multiSceneCreditsPerSecond;
      const reserve = Math.max(1, Math.ceil(seconds * price));
      const stored: MultiParams = { drive_mode: params.drive_mode, output_mode: params.output_mode, scenes };
      const { rows } = await q.query<{ id: number }>(
        `INSERT INTO works (user_id, name, api, status, is_multi, only_audio, avatar_id, params, price, reserved)
         VALUES ($1, $2, $3, 1, 1, $4, $5, $6, $7, $8) RETURNING id`,
        [user.id, params.name, params.api, params.output_mode === 'audio' ? 1 : 0, scenes[0]?.avatar_id ?? null, JSON.stringify(stored), price, reserve],
      );
      return { id: await reserveAndQueue(ctx, q, { userId: user.id, workId: rows[0]!.id, amount: reserve, action: '多场景创作' }) };
    }),
  );
}

export async function renderMulti(ctx: FeatureContext, work: RenderRow, dir: string): Promise<RenderedWork> {
  const scenes = work.params.scenes ?? [];
  const audios: { file: string; ext: string }[] = [];
  for (const [i, scene] of scenes.entries()) {
    if (scene.audio_file_id !== undefined) {
      const { rows } = await ctx.db.query<{ key: string }>('SELECT object_key AS key FROM files WHERE id = $1 AND user_id = $2', [scene.audio_file_id, work.user_id]);
      if (!rows[0]) throw new WorkInputGone(`第${i + 1}个场景的音频已被删除，积分已退回`);
      const ext = rows[0].key.slice(rows[0].key.lastIndexOf('.') + 1);
      audios.push({ file: await fetchObject(ctx, rows[0].key, path.join(dir, `scene-${i}.${ext}`)), ext });
    } else {
      audios.push({ file: await speak(ctx, work.user_id, scene.speech!, scene.text ?? '', path.join(dir, `scene-${i}.mp3`)), ext: 'mp3' });
    }
  }

  if (work.params.output_mode === 'audio') {
    const output = path.join(dir, 'work.mp3');
    const { duration } = await concatAudio(audios, output);
    return { file: output, ext: 'mp3', duration, coverKey: '' };
  }

  const loops = new Map<number, { file: string; seconds: number; cover: string }>();
  const videos: string[] = [];
  for (const [i, scene] of scenes.entries()) {
    let loop = loops.get(scene.avatar_id!);
    if (!loop) {
      const { rows } = await ctx.db.query<{ loop_key: string; cover_key: string }>(
        'SELECT loop_key, cover_key FROM avatars WHERE id = $1 AND (user_id = $2 OR user_id IS NULL) AND status = 3',
        [scene.avatar_id, work.user_id],
      );
      if (!rows[0]?.loop_key) throw new WorkInputGone(`第${i + 1}个场景的数字人已被删除，积分已退回`);
      const file = await fetchObject(ctx, rows[0].loop_key, path.join(dir, `loop-${scene.avatar_id}.mp4`));
      loop = { file, seconds: await loopSeconds(file), cover: rows[0].cover_key };
      loops.set(scene.avatar_id!, loop);
    }
    const startAt = work.params.drive_mode === 'random' ? Math.floor(Math.random() * Math.max(1, Math.floor(loop.seconds))) : 0;
    const video = path.join(dir, `scene-${i}.mp4`);
    await renderTalkingVideo(loop.file, audios[i]!.file, audios[i]!.ext, video, { startAt });
    videos.push(video);
  }
  const output = path.join(dir, 'work.mp4');
  const { duration } = await concatVideos(videos, output, dir);
  return { file: output, ext: 'mp4', duration, coverKey: loops.get(scenes[0]!.avatar_id!)!.cover };
}
