/**
 * Burned-in captions: cues (src/contract/subtitles.ts) as an ASS script drawn onto the picture by ffmpeg's libass, in
 * Noto Sans SC (SIL Open Font License 1.1), which the npm package @expo-google-fonts/noto-sans-sc installs with the product.
 * fontconfig is pointed at that font's folder alone, so no system font is needed, and none is used in its place.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { lineChars, type Cue, type SubtitleStyle } from '../../../src/contract';
import { ffmpeg, probe } from '../../infra/media-probe';
import { FASTSTART, X264, input } from './common';

const require = createRequire(import.meta.url);
/** The caption font: one weight (Medium) of the family, which reads well with an outline. */
export const CAPTION_FONT = { family: 'Noto Sans SC', file: require.resolve('@expo-google-fonts/noto-sans-sc/500Medium/NotoSansSC_500Medium.ttf') } as const;

/** A full line (lineChars characters) spans this share of the picture's width. */
const LINE_WIDTH_SHARE: Record<SubtitleStyle['size'], number> = { S: 0.7, M: 0.82, L: 0.92 };
/** ASS colours are &HAABBGGRR: white, and a warm yellow (#FFE600). */
const TEXT_COLOUR: Record<SubtitleStyle['color'], string> = { white: '&H00FFFFFF', yellow: '&H0000E6FF' };
const OUTLINE_COLOUR = '&H00141414';

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** H:MM:SS.cc */
function assTime(seconds: number): string {
  const cs = Math.max(0, Math.round(seconds * 100));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(cs / 360_000)}:${pad(Math.floor(cs / 6000) % 60)}:${pad(Math.floor(cs / 100) % 60)}.${pad(cs % 100)}`;
}

/** A line as ASS draws it literally: its override braces and backslashes swapped for their full-width look-alikes. */
const assLine = (line: string) => line.replace(/\\/g, '＼').replace(/\{/g, '｛').replace(/\}/g, '｝');

/** The ASS script of the cues on a picture of `frame`'s size: our line breaks only (no wrapping), one style. */
export function assScript(cues: readonly Cue[], style: SubtitleStyle, frame: { width: number; height: number }): string {
  const fontSize = Math.max(10, Math.round((frame.width * LINE_WIDTH_SHARE[style.size]) / lineChars(frame)));
  const outline = Math.max(1.5, Math.round(fontSize * 0.09 * 10) / 10);
  // Alignment 2: bottom centre, a band above the bottom edge; 5: the picture's middle.
  const [alignment, marginV] = style.position === 'middle' ? [5, 0] : [2, Math.round(frame.height * 0.08)];
  return [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${frame.width}`,
    `PlayResY: ${frame.height}`,
    'WrapStyle: 2',
    'ScaledBorderAndShadow: yes',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    `Style: Caption,${CAPTION_FONT.family},${fontSize},${TEXT_COLOUR[style.color]},${TEXT_COLOUR[style.color]},${OUTLINE_COLOUR},&H64000000,0,0,0,0,100,100,0,0,1,${outline},0,${alignment},0,0,${marginV},1`,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...cues.filter((c) => c.end > c.start).map((c) => `Dialogue: 0,${assTime(c.start)},${assTime(c.end)},Caption,,0,0,0,,${c.lines.map(assLine).join('\\N')}`),
    '',
  ].join('\n');
}

/** fontconfig's settings: the caption font's folder only, its cache kept between runs. */
function fontConfig(dir: string): string {
  const file = path.join(dir, 'fonts.conf');
  const cache = path.join(os.tmpdir(), 'aisa-fontconfig-cache');
  fs.writeFileSync(file, `<?xml version="1.0"?>\n<fontconfig><dir>${escapeXml(path.dirname(CAPTION_FONT.file))}</dir><cachedir>${escapeXml(cache)}</cachedir></fontconfig>\n`);
  return file;
}

/**
 * The video with the cues burned into its picture (H.264 again; the sound copied as it is), at `output`. The ASS
 * script and fontconfig's settings are written into a folder of their own beside `output`.
 */
export async function burnSubtitles(video: { file: string; ext: string }, cues: readonly Cue[], style: SubtitleStyle, output: string): Promise<void> {
  const info = await probe(video.file, video.ext);
  if (!info.video) throw new Error('no picture to burn captions into');
  const dir = fs.mkdtempSync(path.join(path.dirname(output), 'captions-'));
  try {
    fs.writeFileSync(path.join(dir, 'captions.ass'), assScript(cues, style, info.video));
    const env = { ...process.env, FONTCONFIG_FILE: fontConfig(dir) };
    // The subtitle file is named relative to `dir`, so no path needs escaping inside the filter's arguments.
    await ffmpeg(
      [...input(path.resolve(video.file), video.ext), '-map', '0:v:0', '-map', '0:a?', '-vf', 'subtitles=captions.ass', ...X264, '-c:a', 'copy', ...FASTSTART, path.resolve(output)],
      30 * 60_000,
      { cwd: dir, env },
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
