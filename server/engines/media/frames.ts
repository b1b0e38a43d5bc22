/** Still frames sampled from a video, for readers of the picture (the offline caption reader). */
import fs from 'node:fs';
import path from 'node:path';
import { ffmpeg } from '../../infra/media-probe';
import { input } from './common';

export interface SampledFrame {
  /** Seconds into the video. */
  at: number;
  file: string;
}

/**
 * `perSecond` frames a second of the video as PNGs in `dir` (only the strip `crop` of the picture when given, its full
 * width), each with its time: ffmpeg's fps filter gives frame n the picture shown at n / perSecond.
 */
export async function sampleFrames(video: string, ext: string, dir: string, o: { perSecond: number; crop?: { y: number; height: number }; timeoutMs?: number }): Promise<SampledFrame[]> {
  const crop = o.crop ? `,crop=iw:${Math.round(o.crop.height)}:0:${Math.round(o.crop.y)}` : '';
  fs.mkdirSync(dir, { recursive: true });
  await ffmpeg([...input(video, ext), '-map', '0:v:0', '-vf', `fps=${o.perSecond}${crop}`, '-start_number', '0', path.join(dir, 'f%06d.png')], o.timeoutMs);
  return fs
    .readdirSync(dir)
    .filter((name) => /^f\d{6}\.png$/.test(name))
    .sort()
    .map((name) => ({ at: Number(name.slice(1, 7)) / o.perSecond, file: path.join(dir, name) }));
}
