/**
 * Multi-scene works: each scene's speech (synthesized with its voice, or its uploaded audio), then each scene's
 * video on its avatar (serial: from the clip's start; random: from a random second), joined into one mp4 — or
 * only the joined speech as one mp3. Priced per second of the result. Submitted on channel fy but rendered here,
 * on the avatar loop (server/engines/render) whatever that channel's engine.
 */
import path from 'node:path';
import { API, AvatarStatus, estimateSeconds, shiftTimed, type CallParsedRequest, type SceneItem, type TimedText } from '../../../src/contract';
import type { Queryable } from '../../infra/db';
import { fetchObject } from '../../infra/storage';
import { probe } from '../../infra/media-probe';
import type { FeatureContext } from '../../app-context';
import { joinSounds, joinVideos } from '../../engines/media';
import { loopSeconds, renderTalkingVideo } from '../../engines/render';
import { AvatarsRepository } from '../avatars';
import { WorksRepository, type RenderRow, type StoredScene, type WorkParams } from './works.repository';
import { WorkCannotRender, ownAudio, readyAvatar, speak, speechSettings, type RenderedWork } from './works.service';
import { timedTextOf } from './subtitles';

/**
 * Checks every scene against what the user may use, and the seconds it will speak: a scene's audio (uploaded, or
 * the preview the client made of its text) is measured; a text still to be synthesized is estimated at its speed.
 */
export async function planScenes(ctx: FeatureContext, q: Queryable, userId: number, params: CallParsedRequest<typeof API.works.multi>, auditionCaptions: (fileId: number) => Promise<TimedText[] | null>) {
  const scenes: StoredScene[] = [];
  let seconds = 0;
  let estimated = false;
  for (const scene of params.content as SceneItem[]) {
    const stored: StoredScene = {};
    if (params.output_mode === 'video') stored.avatar_id = (await readyAvatar(q, scene.video_id!, userId)).id;
    if (scene.type === 'text') {
      const voice = await ctx.speech.usableVoice(q, scene.voice_id!, userId);
      stored.text = scene.text!;
      stored.speech = { voice_id: voice.id, ...speechSettings(voice, scene) };
    }
    if (scene.file_id !== undefined) {
      const audio = await ownAudio(q, userId, { fileId: scene.file_id });
      stored.audio_file_id = audio.id;
      // A text scene's preview: the timed text its audition kept.
      if (stored.text) stored.captions = (await auditionCaptions(audio.id)) ?? undefined;
      delete stored.speech;
      seconds += Number(audio.duration);
    } else {
      seconds += estimateSeconds(stored.text!, stored.speech!.rate);
      estimated = true;
    }
    scenes.push(stored);
  }
  const stored: WorkParams = { drive_mode: params.drive_mode, output_mode: params.output_mode, scenes, estimated };
  return { params: stored, seconds };
}

/** The work's timed text: each scene's, moved to where the scene starts in the joined result. */
function joinTimed(scenes: TimedText[][], seconds: number[]): TimedText[] {
  let at = 0;
  return scenes.flatMap((timed, i) => {
    const moved = shiftTimed(timed, at).map((t) => ({ ...t, end: Math.min(t.end, at + seconds[i]!) }));
    at += seconds[i]!;
    return moved;
  });
}

export async function renderMulti(ctx: FeatureContext, workId: number, work: RenderRow, dir: string): Promise<RenderedWork> {
  const works = new WorksRepository(ctx.db);
  const scenes = work.params.scenes ?? [];
  const audios: { file: string; ext: string }[] = [];
  const timed: TimedText[][] = [];
  for (const [i, scene] of scenes.entries()) {
    let audio: { file: string; ext: string };
    let spoken;
    if (scene.audio_file_id !== undefined) {
      const key = await works.ownFileKey(scene.audio_file_id, work.user_id);
      if (!key) throw new WorkCannotRender(`第${i + 1}个场景的音频已被删除，积分已退回`);
      const ext = key.slice(key.lastIndexOf('.') + 1);
      audio = { file: await fetchObject(ctx.storage, key, path.join(dir, `scene-${i}.${ext}`)), ext };
    } else {
      audio = { file: path.join(dir, `scene-${i}.mp3`), ext: 'mp3' };
      spoken = await speak(ctx, work.user_id, scene.speech!, scene.text ?? '', audio.file);
    }
    audios.push(audio);
    timed.push(await timedTextOf(ctx, { spoken, kept: scene.captions, script: scene.text }, audio, dir));
  }
  const saveCaptions = async (seconds: number[]) => {
    const joined = joinTimed(timed, seconds);
    await works.saveCaptions(workId, joined);
    return joined;
  };

  if (work.params.output_mode === 'audio') {
    const output = path.join(dir, 'work.mp3');
    const { duration } = await joinSounds(audios, output);
    const seconds = await Promise.all(audios.map(async (a) => (await probe(a.file, a.ext)).duration));
    return { file: output, ext: 'mp3', duration, coverKey: '', timed: await saveCaptions(seconds) };
  }

  const avatars = new AvatarsRepository(ctx.db);
  const loops = new Map<number, { file: string; seconds: number; cover: string }>();
  const videos: string[] = [];
  const seconds: number[] = [];
  for (const [i, scene] of scenes.entries()) {
    let loop = loops.get(scene.avatar_id!);
    if (!loop) {
      const avatar = await avatars.usableBy(scene.avatar_id!, work.user_id);
      if (!avatar?.loop_key || Number(avatar.status) !== AvatarStatus.Ready) throw new WorkCannotRender(`第${i + 1}个场景的数字人已被删除，积分已退回`);
      const file = await fetchObject(ctx.storage, avatar.loop_key, path.join(dir, `loop-${scene.avatar_id}.mp4`));
      loop = { file, seconds: await loopSeconds(file), cover: avatar.cover_key };
      loops.set(scene.avatar_id!, loop);
    }
    const startAt = work.params.drive_mode === 'random' ? Math.floor(Math.random() * Math.max(1, Math.floor(loop.seconds))) : 0;
    const video = path.join(dir, `scene-${i}.mp4`);
    seconds.push((await renderTalkingVideo(loop.file, audios[i]!.file, audios[i]!.ext, video, { startAt })).duration);
    videos.push(video);
  }
  const output = path.join(dir, 'work.mp4');
  const { duration } = await joinVideos(videos, output, dir);
  return { file: output, ext: 'mp4', duration, coverKey: loops.get(scenes[0]!.avatar_id!)!.cover, timed: await saveCaptions(seconds) };
}
