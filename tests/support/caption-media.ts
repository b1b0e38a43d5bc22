/**
 * A clip with Chinese captions burned in (the product's own burnSubtitles, Noto Sans SC), for the offline caption
 * reader: a test pattern, a static watermark in the top-right corner for the whole clip, two captions back to back,
 * a pause with none, and a third. Made once per run (media-cache.ts).
 */
import type { Cue } from '../../src/contract';
import { CAPTION_FONT, burnSubtitles } from '../../server/engines/media';
import { lcsLength } from '../../server/engines/ocr/caption-track';
import { execFileSync } from 'node:child_process';
import { cachedFileAsync } from './media-cache';
import { FFMPEG, ffmpegCached } from './media';

export const CAPTIONED_CLIP = {
  seconds: 10,
  width: 640,
  height: 360,
  watermark: '超级分身工作室',
  captions: [
    { start: 0.6, end: 3.0, text: '今天我们来聊一聊数字人视频' },
    { start: 3.0, end: 5.2, text: '只需要一段素材就能克隆形象' },
    // 5.2 – 6.6: a pause, no caption on screen
    { start: 6.6, end: 9.2, text: '声音和口型都由系统自动生成' },
  ],
} as const;

/** The captioned clip (mp4, 640×360, no sound) at `file`. */
export function makeCaptionedClip(file: string): Promise<string> {
  const c = CAPTIONED_CLIP;
  const cues: Cue[] = c.captions.map((s) => ({ start: s.start, end: s.end, lines: [s.text] }));
  return cachedFileAsync(file, { captionedClip: c }, async (out) => {
    const base = `${out}.base.mp4`;
    const watermark = `drawtext=fontfile=${CAPTION_FONT.file}:text=${c.watermark}:fontsize=18:fontcolor=white@0.8:x=w-tw-16:y=14`;
    ffmpegCached(base, ['-f', 'lavfi', '-i', `smptebars=size=${c.width}x${c.height}:rate=25`, '-t', String(c.seconds), '-vf', watermark, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p']);
    await burnSubtitles({ file: base, ext: 'mp4' }, cues, { size: 'M', color: 'white', position: 'bottom' }, out);
  });
}

/**
 * The captioned clip with "speech": a tone while each caption is on screen (the first two 0.2 s short of their shared
 * edge, so a listener hears three spans), silence in the pause. The transcription peer finds those spans.
 */
export function makeSpokenCaptionedClip(file: string): Promise<string> {
  const c = CAPTIONED_CLIP;
  const spans = c.captions.map((s, i) => [i === 1 ? s.start + 0.2 : s.start, i === 0 ? s.end - 0.2 : s.end]);
  const on = spans.map(([a, b]) => `between(t,${a},${b})`).join('+');
  return cachedFileAsync(file, { spokenCaptionedClip: c, spans }, async (out) => {
    const silent = await makeCaptionedClip(`${out}.captions.mp4`);
    execFileSync(FFMPEG, [
      '-hide_banner', '-loglevel', 'error', '-y', '-i', silent, '-f', 'lavfi', '-i', `sine=frequency=300:sample_rate=16000:duration=${c.seconds}`,
      '-af', `volume=enable='not(${on})':volume=0`, '-map', '0:v', '-map', '1:a', '-c:v', 'copy', '-c:a', 'aac', '-shortest', out,
    ]);
  });
}

/** How a reading of the clip compares with the captions burned into it. */
export interface CaptionScore {
  /** Caption characters found in order (longest common subsequence) over all caption characters. */
  inOrder: number;
  /** For each caption, the sentence matched to it (the one sharing most characters), or null. */
  matched: ({ start: number; end: number; text: string } | null)[];
  /** The largest start or end difference of a matched sentence, seconds (Infinity when one is missing). */
  worstTimeError: number;
  /** Whether any of the watermark's characters in a row (3 or more) were read. */
  watermarkSeen: boolean;
}

export function scoreCaptionReading(reading: { sentences: { start: number; end: number; text: string }[]; text: string }): CaptionScore {
  const c = CAPTIONED_CLIP;
  const truth = c.captions.map((s) => s.text).join('');
  const read = reading.sentences.map((s) => s.text).join('');
  const matched = c.captions.map((cap) => {
    const best = [...reading.sentences].sort((a, b) => lcsLength(b.text, cap.text) - lcsLength(a.text, cap.text))[0];
    return best && lcsLength(best.text, cap.text) >= [...cap.text].length / 2 ? best : null;
  });
  const worstTimeError = Math.max(...matched.map((m, i) => (m ? Math.max(Math.abs(m.start - c.captions[i]!.start), Math.abs(m.end - c.captions[i]!.end)) : Infinity)));
  const w = [...c.watermark];
  const watermarkSeen = w.slice(0, -2).some((_, i) => reading.text.includes(w.slice(i, i + 3).join('')));
  return { inOrder: lcsLength(read, truth) / [...truth].length, matched, worstTimeError, watermarkSeen };
}
