/**
 * A work's subtitles (issue 27). The timed text of its speech: speech the job synthesizes brings its own (each
 * stretch's real length from the engine; sentences shared out inside a stretch, see src/contract/subtitles.ts); an
 * audition brought what it kept when the work was submitted; an audio-driven work asks the speech recognition engine
 * when one is configured, else it has none (and its card offers no 字幕). The timed text is kept with the work as soon
 * as it is known. When the work is done: its SRT, lines as long as its picture's width allows, and the captions burned
 * into the picture when the submission asked for them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MSG, cuesOf, formatSrt, lineChars, sentencesOf, type TimedText } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { probe } from '../../infra/media-probe';
import { AsrFailed, asrConfigFromSettings, transcribe } from '../../engines/asr';
import { burnSubtitles, extractSpeechWav } from '../../engines/media';
import type { SpokenStretch } from '../../engines/speech';
import { WorksRepository, type RenderRow } from './works.repository';
import type { RenderedWork } from './works.service';

/** The recognition engine's language for a work's language choice (its cascader's values); others: its own guess. */
const RECOGNITION_LANGUAGE: Record<string, string> = { zh: 'zh', cmn: 'zh', yue: 'yue', en: 'en', 'en-us': 'en', 'en-gb': 'en' };

/** Whether an audio-driven work can have subtitles: a recognition engine is configured. */
export async function recognitionConfigured(ctx: FeatureContext): Promise<boolean> {
  return asrConfigFromSettings(await ctx.settings.all()) !== null;
}

/**
 * The timed sentences of a recorded voice from the recognition engine; none without one. Subtitles are an extra: a
 * recognition that fails leaves the work without them rather than failing it (the card says so when captions were
 * asked for).
 */
export async function recognise(ctx: FeatureContext, audio: { file: string; ext: string }, dir: string, language = ''): Promise<TimedText[]> {
  const asr = asrConfigFromSettings(await ctx.settings.all());
  if (!asr) return [];
  const wav = path.join(dir, `recognise-${path.basename(audio.file)}.wav`);
  await extractSpeechWav(audio.file, audio.ext, wav);
  try {
    return sentencesOf((await transcribe(asr, wav, RECOGNITION_LANGUAGE[language] ?? '')).segments);
  } catch (err) {
    if (!(err instanceof AsrFailed)) throw err;
    ctx.app.log.warn({ detail: err.detail }, `subtitles: recognition failed: ${err.message}`);
    return [];
  }
}

/**
 * The timed text of a speech track: what the engine said of it (`spoken`), else what an audition kept, else — an
 * audition made before auditions kept it — the script shared over the audio's length by characters (an estimate,
 * pause markers keeping their seconds), else (an uploaded voice) the recognition engine's.
 */
export async function timedTextOf(ctx: FeatureContext, source: { spoken?: SpokenStretch[]; kept?: TimedText[] | null; script?: string; language?: string }, audio: { file: string; ext: string }, dir: string): Promise<TimedText[]> {
  if (source.spoken) return sentencesOf(source.spoken);
  if (source.kept) return source.kept;
  if (source.script?.trim()) return sentencesOf([{ text: source.script, start: 0, end: (await probe(audio.file, audio.ext)).duration }]);
  return recognise(ctx, audio, dir, source.language);
}

/** The work's timed text, kept with it (once per work: a later run or a retry reads it back). */
export async function captionsOfWork(ctx: FeatureContext, workId: number, work: RenderRow, audio: { file: string; ext: string }, dir: string, spoken?: SpokenStretch[]): Promise<TimedText[]> {
  if (!spoken && work.captions) return work.captions;
  const timed = await timedTextOf(ctx, { spoken, kept: work.captions, script: work.text, language: work.params.language }, audio, dir);
  await new WorksRepository(ctx.db).saveCaptions(workId, timed);
  return timed;
}

/**
 * The rendered work with its SRT, and with the captions burned into its picture when they were asked for. A work
 * that asked for captions but whose speech has no timed text says so on its card.
 */
export async function withSubtitles(work: RenderRow, rendered: RenderedWork, dir: string): Promise<RenderedWork> {
  const style = work.params.subtitles;
  const picture = rendered.ext === 'mp4' ? (await probe(rendered.file, 'mp4')).video : undefined;
  const cues = cuesOf(rendered.timed ?? [], { maxChars: lineChars(picture) });
  if (!cues.length) return style && picture ? { ...rendered, note: [rendered.note, MSG.subtitlesNone].filter(Boolean).join('；') } : rendered;
  const srt = path.join(dir, 'subtitles.srt');
  fs.writeFileSync(srt, formatSrt(cues));
  if (!style || !picture) return { ...rendered, srt };
  const captioned = path.join(dir, 'captioned.mp4');
  await burnSubtitles({ file: rendered.file, ext: 'mp4' }, cues, style, captioned);
  return { ...rendered, file: captioned, srt };
}
