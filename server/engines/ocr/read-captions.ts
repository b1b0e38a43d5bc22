/**
 * The caption reader's two passes with a given frame reader (the door picks the product's; the bench tries others).
 * A few whole frames spread over the video locate the caption band (where text changes; static text such as
 * watermarks is left out), then frames sampled `perSecond` times a second are read in that band alone and merged
 * into sentences (caption-track.ts), so the expensive reading runs on a strip and not on whole pictures.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { probe } from '../../infra/media-probe';
import { sampleFrames, type SampledFrame } from '../media';
import { captionSentences, locateBand, type CaptionSentence, type FrameLine, type FrameReading } from './caption-track';
import type { FrameReader } from './readers';

export interface CaptionReading {
  /** The captions in order, each with when it is on screen (seconds). */
  sentences: CaptionSentence[];
  /** The sentences' text, one a line. */
  text: string;
}

export interface ReadCaptionsOptions {
  /** Frames read a second (4: a caption's times are found within an eighth of a second). */
  perSecond?: number;
  /** Read every this many frames in the band, and the ones between only where text changes (1: every frame). */
  stride?: number;
  /** Whole frames read to locate the band. */
  locateFrames?: number;
  /** Where the frames are written while they are read (a fresh folder under the system's temporary one). */
  workDir?: string;
}

async function readAll(r: FrameReader, frames: SampledFrame[]): Promise<FrameReading[]> {
  const out: FrameReading[] = [];
  for (const f of frames) out.push({ at: f.at, lines: await r.read(f.file) });
  return out;
}

/** What a frame shows, as far as skimming cares: its texts, in any order. */
const shows = (lines: FrameLine[]) => lines.map((l) => l.text.replace(/\s/g, '')).sort().join('\n');

/**
 * Every `stride`-th frame read, and a frame between two read ones only when those two show different text (halving
 * the gap until they agree): between two frames that read exactly alike, the frames show that same text. Each change
 * is still found to the frame; a caption shorter than the stride that falls between two alike frames is not.
 */
export async function readSkimming(r: FrameReader, frames: SampledFrame[], stride: number): Promise<FrameReading[]> {
  const lines: (FrameLine[] | undefined)[] = new Array<FrameLine[] | undefined>(frames.length);
  const read = async (i: number) => (lines[i] ??= await r.read(frames[i]!.file));
  const between = async (a: number, b: number): Promise<void> => {
    if (b - a < 2) return;
    if (shows(lines[a]!) === shows(lines[b]!)) {
      for (let i = a + 1; i < b; i++) lines[i] = lines[a];
      return;
    }
    const m = (a + b) >> 1;
    await read(m);
    await between(a, m);
    await between(m, b);
  };
  const anchors = [...frames.keys()].filter((i) => i % stride === 0 || i === frames.length - 1);
  for (const i of anchors) await read(i);
  for (let k = 1; k < anchors.length; k++) await between(anchors[k - 1]!, anchors[k]!);
  return frames.map((f, i) => ({ at: f.at, lines: lines[i]! }));
}

/** The captions on screen in `video` (a local file read with the demuxer of `ext`), read by `r`. */
export async function readCaptionsWith(r: FrameReader, video: string, ext: string, o: ReadCaptionsOptions = {}): Promise<CaptionReading> {
  const info = await probe(video, ext);
  if (!info.video || !(info.duration > 0)) return { sentences: [], text: '' };
  const { height } = info.video;
  const dir = fs.mkdtempSync(path.join(o.workDir ?? os.tmpdir(), 'captions-read-'));
  try {
    const locate = await sampleFrames(video, ext, path.join(dir, 'whole'), { perSecond: Math.min(1, (o.locateFrames ?? 8) / info.duration) });
    const band = locateBand(await readAll(r, locate), { height });
    if (!band) return { sentences: [], text: '' };
    const perSecond = o.perSecond ?? 4;
    // Even offsets and sizes, as the picture's chroma needs.
    const y = Math.floor(band.y0 / 2) * 2;
    const crop = { y, height: Math.min(height - y, Math.ceil((band.y1 - y) / 2) * 2) };
    const frames = await readSkimming(r, await sampleFrames(video, ext, path.join(dir, 'band'), { perSecond, crop }), o.stride ?? 2);
    const sentences = captionSentences(frames, { step: 1 / perSecond, height: crop.height, band: { y0: 0, y1: crop.height } });
    return { sentences, text: sentences.map((s) => s.text).join('\n') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
