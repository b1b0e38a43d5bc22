/**
 * The offline caption reader: the captions burned into a video's picture as timed sentences, read on this machine
 * (PP-OCRv4 Chinese models shipped inside npm packages; see readers.ts). It serves copy extraction, subtitles of
 * works whose sound has no script, and video translation when no recognition engine is configured.
 * How: read-captions.ts. What a feature needs is here only.
 */
import { readCaptionsWith, type CaptionReading, type ReadCaptionsOptions } from './read-captions';
import { paddleInstalled, paddleReader, type FrameReader } from './readers';

export type { CaptionSentence } from './caption-track';
export type { CaptionReading, ReadCaptionsOptions } from './read-captions';

let reader: Promise<FrameReader> | null = null;
/** Set when a load failed: the runtime is there but does not run on this machine. */
let loadFailed = false;
/** The reader, loaded once (its models take about a second); a failed load is tried again next time. */
function theReader(): Promise<FrameReader> {
  reader ??= paddleReader().catch((err: unknown) => {
    reader = null;
    loadFailed = true;
    throw err;
  });
  return reader;
}

/** Readings run one at a time: the models use every core, two at once only slow each other. */
let queue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
}

/**
 * Whether the reader can run here: installed (its runtime and models came with npm install) and no load has failed.
 * It loads nothing: the models load on the first reading, not when a screen asks.
 */
export async function captionReaderAvailable(): Promise<boolean> {
  return !loadFailed && paddleInstalled();
}

/** The captions on screen in `video` (a local file read with the demuxer of `ext`). */
export function readCaptions(video: string, ext: string, o: ReadCaptionsOptions = {}): Promise<CaptionReading> {
  return oneAtATime(async () => readCaptionsWith(await theReader(), video, ext, o));
}
