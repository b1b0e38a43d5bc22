/**
 * What the offline engine takes from a voice sample: the speaker's median pitch and speaking rate. It does not
 * copy timbre; it only moves the synthetic voice nearer the speaker (register, pitch, pace).
 */
import { YIN } from 'pitchfinder';
import { DEMUXER, ffmpegPipe } from '../../../infra/media-probe';

export interface VoiceProfile {
  /** Median fundamental frequency of voiced frames, Hz. */
  f0: number;
  /** Syllable-like energy peaks per second of speech. */
  syllablesPerSecond: number;
  /** Seconds of the sample that held speech. */
  speechSeconds: number;
}

const SAMPLE_RATE = 16_000;
/** Enough speech to measure; longer samples are read only this far. */
const ANALYSE_SECONDS = 120;
const FRAME = 1024;
const HOP = 512;
/** Human speaking pitch range; YIN answers outside it are octave errors or noise. */
const F0_RANGE = [60, 500] as const;
/** 10 ms energy frames for the rate measure. */
const ENERGY_FRAME = SAMPLE_RATE / 100;
/** Two syllable nuclei are at least this far apart. */
const MIN_PEAK_GAP_FRAMES = 10;

export class SampleHasNoSpeech extends Error {}

export async function measureVoice(file: string, ext: string): Promise<VoiceProfile> {
  const raw = await ffmpegPipe(['-f', DEMUXER[ext] ?? 'mov', '-t', String(ANALYSE_SECONDS), '-i', file, '-ac', '1', '-ar', String(SAMPLE_RATE), '-f', 'f32le', 'pipe:1']);
  const samples = new Float32Array(raw.buffer, raw.byteOffset, Math.floor(raw.byteLength / 4));
  return profileOf(samples);
}

export function profileOf(samples: Float32Array): VoiceProfile {
  const energies = frameEnergies(samples);
  const loudest = Math.max(0, ...energies);
  // Speech is whatever rises above a tenth of the loudest frame (RMS); below it is room noise or silence.
  const threshold = loudest * 0.1;
  const speechFrames = energies.filter((e) => e > threshold).length;
  const speechSeconds = speechFrames / 100;
  if (loudest < 1e-3 || speechSeconds < 0.5) throw new SampleHasNoSpeech('no speech in the sample');

  const detect = YIN({ sampleRate: SAMPLE_RATE, threshold: 0.15 });
  const pitches: number[] = [];
  for (let start = 0; start + FRAME <= samples.length; start += HOP) {
    const frame = samples.subarray(start, start + FRAME);
    if (rms(frame) <= threshold) continue;
    const f = detect(frame);
    if (f && f >= F0_RANGE[0] && f <= F0_RANGE[1]) pitches.push(f);
  }
  if (pitches.length < 5) throw new SampleHasNoSpeech('no voiced frames in the sample');

  return { f0: Math.round(median(pitches)), syllablesPerSecond: round2(countPeaks(smooth(energies), threshold) / speechSeconds), speechSeconds: round2(speechSeconds) };
}

function frameEnergies(samples: Float32Array): number[] {
  const out: number[] = [];
  for (let start = 0; start + ENERGY_FRAME <= samples.length; start += ENERGY_FRAME) out.push(rms(samples.subarray(start, start + ENERGY_FRAME)));
  return out;
}

function rms(frame: Float32Array): number {
  let sum = 0;
  for (const v of frame) sum += v * v;
  return Math.sqrt(sum / frame.length);
}

function smooth(values: number[], radius = 3): number[] {
  return values.map((_, i) => {
    let sum = 0;
    let n = 0;
    for (let j = Math.max(0, i - radius); j <= Math.min(values.length - 1, i + radius); j++, n++) sum += values[j]!;
    return sum / n;
  });
}

/** Local maxima above the threshold, at least MIN_PEAK_GAP_FRAMES apart, with a dip between them. */
function countPeaks(values: number[], threshold: number): number {
  let count = 0;
  let lastPeak = -Infinity;
  let dipSinceLast = true;
  let lowest = Infinity;
  for (let i = 1; i < values.length - 1; i++) {
    const v = values[i]!;
    lowest = Math.min(lowest, v);
    const isPeak = v > threshold && v >= values[i - 1]! && v > values[i + 1]!;
    if (!isPeak) continue;
    // A peak counts when the energy fell at least a quarter below it since the previous one.
    dipSinceLast = lowest < v * 0.75;
    if (i - lastPeak >= MIN_PEAK_GAP_FRAMES && dipSinceLast) {
      count++;
      lastPeak = i;
      lowest = Infinity;
    }
  }
  return count;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
