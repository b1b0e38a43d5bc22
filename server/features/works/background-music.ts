/**
 * A work's background music: at submit the chosen track (a library track, or one of the user's own finished music
 * tasks) is resolved to its stored object; after the render its sound is laid under the work's, ducked under the
 * speech, faded in and out, looped or cut to the work's length (media engine: duckMusicUnderVideo).
 */
import path from 'node:path';
import { LIMITS, MSG, parseMusicTrackRef } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import type { Queryable } from '../../infra/db';
import { ApiError } from '../../infra/http';
import { fetchObject } from '../../infra/storage';
import { duckMusicUnder, duckMusicUnderVideo } from '../../engines/media';
import { MusicRepository } from '../music';
import type { WorkParams } from './works.repository';
import type { RenderedWork } from './works.service';
import { WorkCannotRender } from './works.service';

/** The track a submission names, as the work keeps it; refused when it is not one the user may pick. */
export async function workBgm(q: Queryable, userId: number, p: { bgm?: string; bgm_volume: number }): Promise<WorkParams['bgm']> {
  if (!p.bgm) return undefined;
  const key = await new MusicRepository(q).usableTrack(parseMusicTrackRef(p.bgm), userId);
  if (!key) throw new ApiError(MSG.musicTrackMissing);
  return { key, volume: p.bgm_volume };
}

/** The rendered work (a video, or a multi-scene work's mp3) with its background music under the sound, or as it was. */
export async function withBackgroundMusic(ctx: FeatureContext, bgm: WorkParams['bgm'], rendered: RenderedWork, dir: string): Promise<RenderedWork> {
  if (!bgm) return rendered;
  const ext = path.extname(bgm.key).slice(1);
  let music: string;
  try {
    music = await fetchObject(ctx.storage, bgm.key, path.join(dir, `bgm.${ext}`));
  } catch {
    throw new WorkCannotRender(`${MSG.musicTrackMissing}，积分已退回`);
  }
  const fades = { volume: bgm.volume, fadeIn: LIMITS.music.bgmFadeInSeconds, fadeOut: LIMITS.music.bgmFadeOutSeconds };
  if (rendered.ext === 'mp3') {
    const output = path.join(dir, 'with-music.mp3');
    await duckMusicUnder({ file: rendered.file, ext: 'mp3' }, { file: music, ext }, { ...fades, seconds: rendered.duration, output });
    return { ...rendered, file: output };
  }
  const output = path.join(dir, 'with-music.mp4');
  const { duration } = await duckMusicUnderVideo(rendered.file, { file: music, ext }, { ...fades, output });
  return { ...rendered, file: output, duration: Math.min(rendered.duration, duration) };
}
