/**
 * Waveform peaks of an audio file in the browser: fetch (or read) the bytes, decode them with the Web Audio API's
 * decodeAudioData on a small offline context (no user gesture needed, low sample rate: only the shape matters),
 * then reduce to peaks (computePeaks). Results are kept per key, a few at a time. Used by every panel that draws
 * a sound (voice samples, dubs).
 */
export interface WaveformData {
  /** 0..1 per bar. */
  peaks: number[];
  /** Seconds. */
  duration: number;
}

/** Bars computed once per file; the canvas merges them down to its width. */
export const PEAK_BUCKETS = 480;
/** Decoding rate: enough for the envelope, a tenth of the memory of 44.1 kHz. */
const DECODE_RATE = 8000;
const CACHE_SIZE = 24;

const cache = new Map<string, Promise<WaveformData>>();

type OfflineCtor = new (channels: number, length: number, sampleRate: number) => BaseAudioContext;

function offlineContext(): BaseAudioContext {
  const w = globalThis as unknown as { OfflineAudioContext?: OfflineCtor; webkitOfflineAudioContext?: OfflineCtor };
  const Ctor = w.OfflineAudioContext ?? w.webkitOfflineAudioContext;
  if (!Ctor) throw new Error('Web Audio is not available');
  return new Ctor(1, 1, DECODE_RATE);
}

/** Whether this browser can draw waveforms at all. */
export function canDecodeAudio(): boolean {
  const w = globalThis as unknown as { OfflineAudioContext?: unknown; webkitOfflineAudioContext?: unknown };
  return typeof w.OfflineAudioContext === 'function' || typeof w.webkitOfflineAudioContext === 'function';
}

async function bytesOf(source: string | Blob): Promise<ArrayBuffer> {
  if (typeof source !== 'string') return source.arrayBuffer();
  const res = await fetch(source);
  if (!res.ok) throw new Error(`audio fetch failed: ${res.status}`);
  return res.arrayBuffer();
}

async function decode(source: string | Blob): Promise<WaveformData> {
  const bytes = await bytesOf(source);
  const ctx = offlineContext();
  const buffer = await ctx.decodeAudioData(bytes);
  const channels = Array.from({ length: buffer.numberOfChannels }, (_, i) => buffer.getChannelData(i));
  return { peaks: computePeaks(channels, PEAK_BUCKETS), duration: buffer.duration };
}

/**
 * The waveform of `source` (a URL or a local file). `key` names the file for the cache: signed URLs change per
 * listing, so a voice is keyed by its id and file, not by its URL. A failure is not cached.
 */
export function loadWaveform(key: string, source: string | Blob): Promise<WaveformData> {
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const job = decode(source);
  cache.set(key, job);
  job.catch(() => cache.delete(key));
  while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return job;
}

/** A waveform already decoded (or being decoded) for this key. */
export function hasWaveform(key: string): boolean {
  return cache.has(key);
}

/**
 * The waveform's bars: for each of `buckets` equal slices of the samples, the largest magnitude over all channels,
 * scaled so the loudest bar is 1 (silence stays 0). Each slice is read with a stride, so a long file stays cheap.
 */
export function computePeaks(channels: readonly Float32Array[], buckets: number, maxReadsPerBucket = 2000): number[] {
  const length = channels.reduce((n, c) => Math.max(n, c.length), 0);
  const count = Math.max(0, Math.floor(buckets));
  if (count === 0) return [];
  const peaks = new Array<number>(count).fill(0);
  if (length === 0) return peaks;
  const per = length / count;
  for (let b = 0; b < count; b++) {
    const start = Math.floor(b * per);
    const end = Math.max(start + 1, Math.min(length, Math.floor((b + 1) * per)));
    const step = Math.max(1, Math.floor((end - start) / maxReadsPerBucket));
    let peak = 0;
    for (const data of channels) {
      for (let i = start; i < end && i < data.length; i += step) {
        const v = Math.abs(data[i]!);
        if (v > peak) peak = v;
      }
    }
    peaks[b] = peak;
  }
  const max = Math.max(...peaks);
  return max > 0 ? peaks.map((p) => p / max) : peaks;
}

/** Merges peaks down to `count` bars (the largest of each group), for a narrower canvas. */
export function resamplePeaks(peaks: readonly number[], count: number): number[] {
  const n = Math.max(0, Math.floor(count));
  if (n === 0 || peaks.length === 0) return new Array<number>(n).fill(0);
  if (n >= peaks.length) return [...peaks];
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const from = Math.floor((i * peaks.length) / n);
    const to = Math.max(from + 1, Math.floor(((i + 1) * peaks.length) / n));
    let m = 0;
    for (let j = from; j < to; j++) m = Math.max(m, peaks[j]!);
    out.push(m);
  }
  return out;
}
