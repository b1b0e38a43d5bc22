/**
 * Multi-scene works: each scene's speech (synthesized with its voice, or its uploaded audio), then each scene's
 * video on its avatar lip-synced to that speech (serial: from the clip's start; random: from a random second),
 * joined into one mp4 — or only the joined speech as one mp3. Submitted on channel fy, stored on the channel that
 * lip-syncs them (multiSceneChannel: fy's own engine when it moves the mouth, else 本地口型) and priced at its
 * credits per second of the result. A remote engine renders the scenes one after another (remote-render.ts).
 */
import path from 'node:path';
import { API, AvatarStatus, MSG, estimateSeconds, shiftTimed, type CallParsedRequest, type MultiSceneChannel, type SceneItem, type TimedText } from '../../../src/contract';
import type { Queryable } from '../../infra/db';
import { fetchObject } from '../../infra/storage';
import { probe } from '../../infra/media-probe';
import type { FeatureContext } from '../../app-context';
import { joinSounds, joinVideos } from '../../engines/media';
import { loopSeconds } from '../../engines/render';
import type { FaceInput, LocalLipSyncEngine } from '../../engines/lipsync';
import { AvatarsRepository } from '../avatars';
import { WorksRepository, type ChannelRow, type RenderRow, type StoredScene, type WorkParams } from './works.repository';
import { WorkCannotRender, avatarFaceInput, ownAudio, readyAvatar, speak, speechSettings, type RenderedWork } from './works.service';
import { timedTextOf } from './subtitles';

/** The multi-scene lip-sync channel as /multiples shows it (videoChannel's `multi`). */
export function multiSceneOffer(channel: ChannelRow): MultiSceneChannel {
  const local = channel.engine === 'lipsync';
  return { api: channel.api, name: channel.name, credits: Number(channel.credits), local, tip: MSG.multiSceneLipSync(channel.name, local) };
}

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

/** Each scene's speech (fetched or synthesized into `dir`), its timed text, and the stored object of an uploaded one. */
export async function sceneSpeeches(ctx: FeatureContext, work: RenderRow, dir: string): Promise<{ audios: { file: string; ext: string }[]; timed: TimedText[][]; keys: (string | undefined)[] }> {
  const works = new WorksRepository(ctx.db);
  const audios: { file: string; ext: string }[] = [];
  const timed: TimedText[][] = [];
  const keys: (string | undefined)[] = [];
  for (const [i, scene] of (work.params.scenes ?? []).entries()) {
    let audio: { file: string; ext: string };
    let spoken;
    if (scene.audio_file_id !== undefined) {
      const key = await works.ownFileKey(scene.audio_file_id, work.user_id);
      if (!key) throw new WorkCannotRender(`第${i + 1}个场景的音频已被删除，积分已退回`);
      const ext = key.slice(key.lastIndexOf('.') + 1);
      audio = { file: await fetchObject(ctx.storage, key, path.join(dir, `scene-${i}.${ext}`)), ext };
      keys.push(key);
    } else {
      keys.push(undefined);
      audio = { file: path.join(dir, `scene-${i}.mp3`), ext: 'mp3' };
      spoken = await speak(ctx, work.user_id, scene.speech!, scene.text ?? '', audio.file);
    }
    audios.push(audio);
    timed.push(await timedTextOf(ctx, { spoken, kept: scene.captions, script: scene.text }, audio, dir));
  }
  return { audios, timed, keys };
}

/** Saves the work's timed text (each scene's, moved to where it starts) and answers it. */
export async function saveSceneCaptions(ctx: FeatureContext, workId: number, timed: TimedText[][], seconds: number[]): Promise<TimedText[]> {
  const joined = joinTimed(timed, seconds);
  await new WorksRepository(ctx.db).saveCaptions(workId, joined);
  return joined;
}

/** A scene's avatar, still ready for the work's user; else the work cannot render. */
export async function sceneAvatar(ctx: FeatureContext, work: RenderRow, index: number) {
  const scene = work.params.scenes![index]!;
  const avatar = await new AvatarsRepository(ctx.db).usableBy(scene.avatar_id!, work.user_id);
  if (!avatar?.loop_key || Number(avatar.status) !== AvatarStatus.Ready) throw new WorkCannotRender(`第${index + 1}个场景的数字人已被删除，积分已退回`);
  return avatar;
}

/** A scene's start in its avatar's clip: 0 (serial), or a random whole second of it. */
export const sceneStart = (work: RenderRow, clipSeconds: number) =>
  work.params.drive_mode === 'random' ? Math.floor(Math.random() * Math.max(1, Math.floor(clipSeconds))) : 0;

/** On an engine of this machine (the offline lip-sync one): every scene rendered here, then joined. */
export async function renderMulti(ctx: FeatureContext, workId: number, work: RenderRow, engine: LocalLipSyncEngine, dir: string): Promise<RenderedWork> {
  const scenes = work.params.scenes ?? [];
  const { audios, timed } = await sceneSpeeches(ctx, work, dir);
  const saveCaptions = (seconds: number[]) => saveSceneCaptions(ctx, workId, timed, seconds);

  if (work.params.output_mode === 'audio') {
    const output = path.join(dir, 'work.mp3');
    const { duration } = await joinSounds(audios, output);
    const seconds = await Promise.all(audios.map(async (a) => (await probe(a.file, a.ext)).duration));
    return { file: output, ext: 'mp3', duration, coverKey: '', timed: await saveCaptions(seconds) };
  }

  const avatars = new Map<number, { loop: string; seconds: number; cover: string; face?: FaceInput }>();
  const videos: string[] = [];
  const seconds: number[] = [];
  const notes = new Set<string>();
  for (const [i, scene] of scenes.entries()) {
    let avatar = avatars.get(scene.avatar_id!);
    if (!avatar) {
      const row = await sceneAvatar(ctx, work, i);
      const loop = await fetchObject(ctx.storage, row.loop_key, path.join(dir, `loop-${row.id}.mp4`));
      const face = engine.movesMouth ? (row.video_key ? await avatarFaceInput(ctx, row, dir, `a${row.id}-`) : { note: MSG.lipSyncNoFace }) : undefined;
      avatar = { loop, seconds: await loopSeconds(loop), cover: row.cover_key, face };
      avatars.set(scene.avatar_id!, avatar);
    }
    const video = path.join(dir, `scene-${i}.mp4`);
    const rendered = await engine.render({ loop: avatar.loop, audio: audios[i]!, output: video, face: avatar.face, script: timed[i], startAt: sceneStart(work, avatar.seconds) });
    if (rendered.note) notes.add(rendered.note);
    seconds.push(rendered.duration);
    videos.push(video);
  }
  const output = path.join(dir, 'work.mp4');
  const { duration } = await joinVideos(videos, output, dir);
  const note = [...notes].join('；') || undefined;
  return { file: output, ext: 'mp4', duration, coverKey: avatars.get(scenes[0]!.avatar_id!)!.cover, note, timed: await saveCaptions(seconds) };
}
