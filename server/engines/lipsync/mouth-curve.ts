/**
 * The mouth's motion from the speech alone: for each video frame, how open (0..1) and how round (0..1) the
 * mouth is. Opening follows the loudness of the voice band (vowels open the mouth, hisses barely do),
 * roundness the balance between low and high formant energy (o/u against i/e); both are shaped by a quick
 * attack and a slower release, as lips move, and the mouth is shut in pauses. Where the timed script covers the
 * speech, roundness comes from its words instead: each Chinese syllable's final (o, u, ü round the lips), laid over
 * the voiced frames of its stretch in order.
 */
import { pinyin } from 'pinyin-pro';
import type { TimedText } from '../../../src/contract';
import { DEMUXER, ffmpegPipe } from '../../infra/media-probe';

const RATE = 16_000;
const WINDOW = 512;
/** Attack and release per frame (1 = jump to the target). */
const ATTACK = 0.75;
const RELEASE = 0.45;
/** The mouth moves a little before the sound it makes. */
const LEAD_FRAMES = 1;
/** Below the voice's peak by this much (dB) counts as silence. */
const RANGE_DB = 30;

export interface MouthCurve {
  fps: number;
  open: Float32Array;
  round: Float32Array;
  /** Voice-band level in dB per frame (what the opening was made from; also what tests correlate against). */
  level: Float32Array;
}

export async function decodePcm(audioPath: string, audioExt: string): Promise<Float32Array> {
  const pcm = await ffmpegPipe(['-f', DEMUXER[audioExt] ?? 'mov', '-i', audioPath, '-map', '0:a:0', '-ac', '1', '-ar', String(RATE), '-f', 'f32le', 'pipe:1']);
  return new Float32Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + (pcm.length & ~3)));
}

/** In-place radix-2 FFT of re/im (length a power of two). */
function fft(re: Float32Array, im: Float32Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < len / 2; k++) {
        const wr = Math.cos(ang * k), wi = Math.sin(ang * k);
        const a = i + k, b = a + len / 2;
        const xr = re[b]! * wr - im[b]! * wi, xi = re[b]! * wi + im[b]! * wr;
        re[b] = re[a]! - xr; im[b] = im[a]! - xi;
        re[a] = re[a]! + xr; im[a] = im[a]! + xi;
      }
    }
  }
}

const bin = (hz: number) => Math.round((hz * WINDOW) / RATE);

/** Per-frame voice-band level (dB) and low/high formant balance of PCM at RATE. */
export function speechFeatures(pcm: Float32Array, fps: number, frames: number): { level: Float32Array; lowShare: Float32Array } {
  const level = new Float32Array(frames);
  const lowShare = new Float32Array(frames);
  const re = new Float32Array(WINDOW), im = new Float32Array(WINDOW);
  const hann = Float32Array.from({ length: WINDOW }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (WINDOW - 1)));
  const [voice0, split, voice1] = [bin(250), bin(1000), bin(3500)];
  for (let f = 0; f < frames; f++) {
    const centre = Math.round(((f + 0.5) / fps) * RATE);
    for (let i = 0; i < WINDOW; i++) {
      re[i] = (pcm[centre - WINDOW / 2 + i] ?? 0) * hann[i]!;
      im[i] = 0;
    }
    fft(re, im);
    let low = 0, high = 0;
    for (let k = voice0; k < voice1; k++) {
      const e = re[k]! * re[k]! + im[k]! * im[k]!;
      if (k < split) low += e;
      else high += e;
    }
    level[f] = 10 * Math.log10((low + high) / WINDOW + 1e-10);
    lowShare[f] = low / (low + high + 1e-12);
  }
  return { level, lowShare };
}

function percentile(xs: Float32Array, p: number): number {
  const sorted = Float32Array.from(xs).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

/** Finals said with rounded lips, fully; and those that round only part of the syllable (a glide or an ending). */
const ROUND_FINALS = /^(o|uo|ou|ong|iong|io|u|ü|v|ün|vn|un|ui|iu)$/;
const HALF_ROUND_FINALS = /^(ao|iao|ua|uai|uan|uang|ueng|üe|ve|üan|van)$/;
/** A frame this open (of the soft-kneed target) is voiced: the syllables of the script are spread over such frames. */
const VOICED = 0.15;

/** How round the lips are for each Han character of `text`, in order (0..1). */
export function syllableRounding(text: string): number[] {
  const han = Array.from(text).filter((c) => /\p{Script=Han}/u.test(c)).join('');
  if (!han) return [];
  return pinyin(han, { pattern: 'final', toneType: 'none', type: 'array' }).map((f) => (ROUND_FINALS.test(f) ? 1 : HALF_ROUND_FINALS.test(f) ? 0.5 : 0));
}

/**
 * Roundness per frame from the timed script (NaN where it says nothing): each stretch's syllables share its voiced
 * frames evenly, in order (a syllable is about as long as the next; the pauses between words are skipped).
 */
function scriptRounding(script: readonly TimedText[], target: Float32Array, fps: number): Float32Array {
  const out = new Float32Array(target.length).fill(NaN);
  for (const { start, end, text } of script) {
    const syllables = syllableRounding(text);
    const f0 = Math.max(0, Math.floor(start * fps)), f1 = Math.min(target.length, Math.ceil(end * fps));
    if (!syllables.length || f1 <= f0) continue;
    let voiced = 0;
    for (let f = f0; f < f1; f++) if (target[f]! >= VOICED) voiced++;
    let seen = 0;
    for (let f = f0; f < f1; f++) {
      const at = voiced ? seen / voiced : (f - f0) / (f1 - f0);
      if (!voiced || target[f]! >= VOICED) seen++;
      out[f] = syllables[Math.min(syllables.length - 1, Math.floor(at * syllables.length))]!;
    }
  }
  return out;
}

/**
 * Turns levels into a 0..1 opening: the voice's own loud frames open fully, RANGE_DB below them is shut. `script`
 * (the speech's timed text, when known) decides the rounding where it covers.
 */
export function shapeCurve(level: Float32Array, lowShare: Float32Array, fps: number, script: readonly TimedText[] = []): MouthCurve {
  const frames = level.length;
  const peak = percentile(level, 0.95);
  const floor = Math.max(percentile(level, 0.1) + 3, peak - RANGE_DB);
  const target = new Float32Array(frames);
  const roundTarget = new Float32Array(frames);
  for (let f = 0; f < frames; f++) {
    const x = Math.min(1, Math.max(0, (level[f]! - floor) / Math.max(1, peak - floor)));
    // Soft knee: quiet voice opens a little, the loud syllables most.
    target[f] = x * x * (3 - 2 * x);
    roundTarget[f] = Math.min(1, Math.max(0, (lowShare[f]! - 0.55) / 0.35));
  }
  const said = scriptRounding(script, target, fps);
  for (let f = 0; f < frames; f++) if (!Number.isNaN(said[f]!)) roundTarget[f] = said[f]!;
  const open = new Float32Array(frames);
  const round = new Float32Array(frames);
  let o = 0, r = 0;
  for (let f = 0; f < frames; f++) {
    const want = target[Math.min(frames - 1, f + LEAD_FRAMES)]!;
    o += (want - o) * (want > o ? ATTACK : RELEASE);
    r += (roundTarget[Math.min(frames - 1, f + LEAD_FRAMES)]! * want - r) * 0.4;
    open[f] = o < 0.02 ? 0 : o;
    round[f] = r;
  }
  return { fps, open, round, level };
}

/** The mouth curve of an audio file, one value per video frame at `fps`; `script` is its timed text, when known. */
export async function mouthCurve(audioPath: string, audioExt: string, fps = 25, script?: readonly TimedText[]): Promise<MouthCurve> {
  const pcm = await decodePcm(audioPath, audioExt);
  const frames = Math.ceil((pcm.length / RATE) * fps);
  const { level, lowShare } = speechFeatures(pcm, fps, frames);
  return shapeCurve(level, lowShare, fps, script);
}
