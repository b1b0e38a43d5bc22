/**
 * Waveform peaks of an audio file in the browser: fetch (or read) the bytes, decode them with the Web Audio API's
 * decodeAudioData on a small offline context (no user gesture needed, low sample rate: only the shape matters),
 * then reduce to peaks (computePeaks). Results are kept per key, a few at a time.
 */
import { computePeaks } from './voice-view';

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
