/**
 * Measures a rendered video's lip motion from its pixels, independently of how it was made: the landmark
 * detector reads the mouth's opening in every frame, and the audio's loudness is taken per 40 ms frame.
 */
import { point, type FaceTrack } from '../../server/engines/lipsync/face-track';
import { trackFaces } from '../../server/engines/lipsync/analyse';
import { decodePcm } from '../../server/engines/lipsync/mouth-curve';

/** decodePcm's sample rate. */
const PCM_RATE = 16_000;
const FRAME_RATE = 25;

/** The inner lips' gap over the mouth's width, per frame (the landmark detector's reading of the pixels). */
export function mouthOpenings(track: FaceTrack): number[] {
  return Array.from({ length: track.frames }, (_, f) => {
    const [x62, y62] = point(track, f, 62), [x66, y66] = point(track, f, 66);
    const [x48, y48] = point(track, f, 48), [x54, y54] = point(track, f, 54);
    return Math.hypot(x66 - x62, y66 - y62) / Math.hypot(x54 - x48, y54 - y48);
  });
}

/** Loudness (RMS dB) of 16 kHz mono audio in each 40 ms video frame. */
export function loudness(pcm: Float32Array, frames: number): number[] {
  const per = PCM_RATE / FRAME_RATE;
  return Array.from({ length: frames }, (_, f) => {
    let sum = 0;
    for (let i = f * per; i < (f + 1) * per; i++) sum += (pcm[i] ?? 0) ** 2;
    return 10 * Math.log10(sum / per + 1e-9);
  });
}

/** Pearson correlation over the common length. */
export function correlation(a: number[], b: number[]): number {
  const n = Math.min(a.length, b.length);
  const mean = (x: number[]) => x.slice(0, n).reduce((s, v) => s + v, 0) / n;
  const ma = mean(a), mb = mean(b);
  let ab = 0, aa = 0, bb = 0;
  for (let i = 0; i < n; i++) {
    ab += (a[i]! - ma) * (b[i]! - mb);
    aa += (a[i]! - ma) ** 2;
    bb += (b[i]! - mb) ** 2;
  }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0;
}

export interface LipMeasure {
  /** The landmarks the detector found in every frame, unsmoothed. */
  track: FaceTrack;
  openings: number[];
  /** RMS dB per frame of `audio`. */
  loud: number[];
  /** correlation(openings, loud). */
  follows: number;
}

/** Reads the mouth in every frame of `video` and sets it beside the loudness of `audio` (default: the video's own sound). */
export async function measureLips(video: string, audio = { file: video, ext: 'mp4' }): Promise<LipMeasure> {
  const track = await trackFaces(video, { step: 1, smooth: 0 });
  const openings = mouthOpenings(track);
  const loud = loudness(await decodePcm(audio.file, audio.ext), track.frames);
  return { track, openings, loud, follows: correlation(openings, loud) };
}
