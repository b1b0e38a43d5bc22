/**
 * Video translation (part 2 §2.7). A submit checks the languages, the engines and the user's upload, reserves the
 * price of the upload's length and queues one job. The job's steps keep what they made on the record, so a retry
 * resumes where the last run stopped:
 *   1. sound track → 2. recognition: timed segments from the transcription engine (refused without them), or without
 *   one the captions on screen read offline (engines/ocr)
 *   → 3. translation of the segments by the chat engine, one for one → 4. the dub's voice: on the first enabled
 *   voice channel whose engine clones and can discard a clone after (GPT-SoVITS, fish-speech, Fish Audio, MiniMax),
 *   a temporary clone of the speaker from the video's recognised speech (kept on the record until the dub is made,
 *   so a retry speaks with it instead of cloning again, then discarded); otherwise, or when cloning fails, the
 *   offline engine at the speaker's measured pitch and pace. The record says which → 5. speech for each translated
 *   segment in that voice, fitted into its segment's slot (dubbing.ts), laid over the original sound kept low, and
 *   the SRT of the translation → 6. the video: the new sound muxed under the original picture, or (mode 1) the
 *   lip-sync engine's render of the picture to the new speech. The sound and video work is the media engine's.
 * The price is settled on the result's length; a failure refunds it all and the record says why.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { MSG, TRANSLATE_LANGUAGES, TranslationMode, WorkStatus, formatSrt, translateCredits, type TranslationModeValue } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { ApiError } from '../../infra/http';
import { probe } from '../../infra/media-probe';
import type { JobRun } from '../../infra/queue';
import { JobRefused, runPaidJob } from '../../infra/paid-job';
import { fetchObject } from '../../infra/storage';
import { deleteObjects, storeUserFile } from '../../infra/user-files';
import { withWorkDir } from '../../infra/work-dirs';
import { AsrFailed, asrConfigFromSettings, transcribe, type Transcript } from '../../engines/asr';
import { askJson, ChatAnswerInvalid, ChatEngineError, OpenAiCompatibleChat, resolveChatConfig, type ChatMessage } from '../../engines/chat';
import { analyseAvatarFaces, renderLipSync } from '../../engines/lipsync';
import { captionReaderAvailable, readCaptions } from '../../engines/ocr';
import { extractSpeechWav, joinSoundSpans, laySpeechOver, makeCover, normaliseVideo, replaceSound } from '../../engines/media';
import { measureVoice, SampleHasNoSpeech, SpeechEngineError, type CloneSample, type EngineVoice, type SpeechEngine, type TrainingState } from '../../engines/speech';
import { refundIn, spendOrRefuse } from '../credits';
import { VoicesRepository } from '../voices';
import { fitSlots, translatedLines, type PlacedSpeech } from './dubbing';
import { ownedKeys, TranslationRepository, type DubClone, type TranslationRow } from './translation.repository';

/** The original sound under the new speech: low enough that the new voice leads, loud enough to keep the scene. */
const BACKGROUND_LEVEL = 0.12;
/** The offline engine's voice for each target language (its language cascader's leaves). */
const SPEECH_LANGUAGE: Record<string, string> = { zh: 'cmn', en: 'en-us', yue: 'yue' };
/** How the chat engine is told the languages. */
const PROMPT_LANGUAGE: Record<string, string> = { zh: 'Simplified Chinese (Mandarin)', en: 'English', yue: 'Cantonese (written in traditional characters)' };
/** The longest video taken (the upload hint's 10 minutes). */
const MAX_SOURCE_SECONDS = 10 * 60;
/** The most of the speaker's recognised speech sent to be cloned (each engine keeps at most what it takes). */
const CLONE_SAMPLE_SECONDS = 60;
/** A provider that trains a clone (Fish Audio's fast mode) is asked this often, this many times, before the dub gives up on it. */
const CLONE_POLL_MS = 3_000;
const CLONE_POLLS = 20;

/**
 * How a video's words are read: the speech when a recognition engine is configured, else the captions on screen with
 * the offline reader (so captioned videos translate on this machine alone); '' when neither can (the screen says so).
 */
export async function wordReader(ctx: FeatureContext): Promise<'asr' | 'ocr' | ''> {
  if (asrConfigFromSettings(await ctx.settings.all())) return 'asr';
  return (await captionReaderAvailable()) ? 'ocr' : '';
}

const languageName = (id: string) => TRANSLATE_LANGUAGES.find((l) => l.id === id)?.name;

/** Records, charges and queues one translation; answers its id. */
export async function submitTranslation(ctx: FeatureContext, userId: number, s: { fileId: number; sourceLang: string; targetLang: string; mode: number }): Promise<number> {
  if (!languageName(s.sourceLang) || !languageName(s.targetLang)) throw new ApiError(MSG.translationLangUnknown);
  const settings = await ctx.settings.all();
  if (!(await wordReader(ctx))) throw new ApiError(MSG.translationAsrMissing);
  if (!resolveChatConfig(ctx.config.chat, settings)) throw new ApiError(MSG.translationChatMissing);
  const video = await new TranslationRepository(ctx.db).ownVideoFile(s.fileId, userId);
  if (!video) throw new ApiError(MSG.translationVideoMissing);
  if (video.seconds > MAX_SOURCE_SECONDS) throw new ApiError(MSG.translationVideoTooLong);
  const mode = s.mode as TranslationModeValue;
  const reserved = translateCredits(video.seconds, mode);
  const name = `${video.name.replace(/\.[^.]+$/, '') || '视频'}（${languageName(s.targetLang)}）`;
  return await ctx.db.tx(async (q) => {
    const repo = new TranslationRepository(q);
    const id = await repo.add({ userId, fileId: s.fileId, name, sourceLang: s.sourceLang, targetLang: s.targetLang, mode, sourceSeconds: video.seconds, reserved });
    const spend = await spendOrRefuse(q, { userId, amount: reserved, action: '视频翻译', key: `translate:${id}` });
    await repo.setSpend(id, spend.entryId);
    // Lip sync renders every frame: its job may run far longer than a mux.
    const runsUpToSeconds = 120 + Math.ceil(video.seconds) * (mode === TranslationMode.LipSync ? 8 : 3);
    await ctx.queue.send('translation-run', { translationId: id }, { runsUpToSeconds }, q);
    return id;
  });
}

/** Deletes a finished or failed record and the objects it made (the upload stays in the material library). */
export async function removeTranslation(ctx: FeatureContext, userId: number, id: number): Promise<void> {
  const removed = await new TranslationRepository(ctx.db).removeFinished(id, userId, { missing: MSG.translationRecordMissing, busy: MSG.translationBusy });
  await deleteObjects(ctx, ownedKeys(removed));
}

/** A failure the input or an engine caused: the record fails at once with this reason, no retry. */
class TranslationRefused extends JobRefused {}

async function failRecord(ctx: FeatureContext, id: number, why: string): Promise<void> {
  const failed = await ctx.db.tx(async (q) => {
    const ended = await new TranslationRepository(q).failPaid(id, () => MSG.translationFailed(why));
    if (ended?.refund) await refundIn(q, { ...ended.refund, action: '视频翻译失败退回', key: `translate:${id}:failed` });
    return ended?.old;
  });
  if (!failed) return;
  await deleteObjects(ctx, ownedKeys(failed));
  await discardClone(ctx, id, failed.clone);
}

/** The job of a record, through the paid-job runner: a record no longer in progress is left alone. */
export function runTranslation(ctx: FeatureContext, translationId: number, job: JobRun): Promise<void> {
  const repo = new TranslationRepository(ctx.db);
  return runPaidJob(job, {
    load: () => repo.get(translationId),
    isOpen: (record) => [WorkStatus.Queued, WorkStatus.Rendering].includes(Number(record.status) as 1 | 2),
    run: async (record, { lastAttempt }) => {
      await repo.start(translationId);
      await withWorkDir(ctx.config.dataDir, (dir) => translate(ctx, record, dir, lastAttempt));
    },
    fail: (record, why) => failRecord(ctx, record.id, why),
    // An engine's error carries its Chinese reason: at once when it calls itself permanent, else on the last attempt.
    permanent: (err) => ((err instanceof AsrFailed || err instanceof ChatEngineError) && !err.transient ? err.message : undefined),
    lastReason: (err) => (err instanceof AsrFailed || err instanceof ChatEngineError ? err.message : MSG.translationFailedUnknown),
  });
}

async function translate(ctx: FeatureContext, record: TranslationRow, dir: string, lastAttempt: boolean): Promise<void> {
  const repo = new TranslationRepository(ctx.db);
  const source = record.file_id === null ? undefined : await repo.ownVideoFile(record.file_id, record.user_id);
  if (!source) throw new TranslationRefused(MSG.translationVideoMissing);
  const ext = source.key.slice(source.key.lastIndexOf('.') + 1);
  const video = await fetchObject(ctx.storage, source.key, path.join(dir, `source.${ext}`));
  const info = await probe(video, ext);
  if (!info.audio) throw new TranslationRefused(MSG.translationNoSound);
  const total = info.duration;

  // 1. The sound track, as the recognizer and the voice measure want it.
  const sound = path.join(dir, 'sound.wav');
  await extractSpeechWav(video, ext, sound);

  // 2. Timed segments.
  let transcript = record.transcript;
  if (!transcript) {
    const asr = asrConfigFromSettings(await ctx.settings.all());
    if (asr) {
      transcript = await transcribe(asr, sound, record.source_lang);
      if (!transcript.segments.length) throw new TranslationRefused(MSG.translationNoSpeech);
    } else {
      // No recognition engine: the captions on screen, read offline, are the timed sentences.
      const { sentences } = await readCaptions(video, ext, { workDir: dir });
      if (!sentences.length) throw new TranslationRefused(MSG.translationNoCaptions);
      transcript = { language: record.source_lang, segments: sentences };
    }
    await repo.saveTranscript(record.id, transcript);
  }

  // 3. Their translations, one for one.
  let lines = record.lines;
  if (!lines) {
    lines = await translateLines(ctx, transcript, record.source_lang, record.target_lang);
    await repo.saveLines(record.id, lines);
  }

  // 4–5. The dub's voice, then the new sound track in it and its subtitles.
  let dubKey = record.dub_key;
  let dub = path.join(dir, 'dub.m4a');
  if (dubKey) {
    dub = await fetchObject(ctx.storage, dubKey, dub);
    // A run that stopped between storing the dub and discarding its clone.
    await discardClone(ctx, record.id, record.clone);
  } else {
    const dubbing = { video, ext, sound, total, output: dub, dir };
    const chosen = record.voice ? { voice: record.voice, clone: record.clone } : await chooseVoice(ctx, record, transcript, dubbing);
    let placed: PlacedSpeech[];
    try {
      placed = await dubSpeech(transcript, lines, await speaker(ctx, chosen.clone, record.target_lang, sound), dubbing);
    } catch (err) {
      // A channel that may answer later: the retried job speaks with the same clone. One that cannot speak the clone
      // (or the last attempt): the offline voice instead, and the record says why.
      if (!chosen.clone || !(err instanceof SpeechEngineError) || (err.transient && !lastAttempt)) throw err;
      await repo.saveVoice(record.id, MSG.translationVoiceCloneFailed(err.message), chosen.clone);
      placed = await dubSpeech(transcript, lines, await speaker(ctx, null, record.target_lang, sound), dubbing);
    }
    const srtFile = path.join(dir, 'subtitles.srt');
    // One cue a translated sentence, on one line, where its dub plays.
    fs.writeFileSync(srtFile, formatSrt(placed.map((p, i) => ({ start: p.start, end: p.start + p.length, lines: [lines![i]!] }))));
    const stored = await storeUserFile(ctx, record.user_id, dub, 'm4a', 'other', total);
    const srt = await storeUserFile(ctx, record.user_id, srtFile, 'srt', 'other');
    await repo.saveDub(record.id, stored.key, srt.key);
    dubKey = stored.key;
    await discardClone(ctx, record.id, chosen.clone);
  }

  // 6. The video.
  const output = path.join(dir, 'translated.mp4');
  let charged = Number(record.mode) as TranslationModeValue;
  let note = '';
  if (charged === TranslationMode.LipSync) {
    const synced = await lipSync(video, ext, dub, output, dir);
    if (!synced) {
      charged = TranslationMode.VoiceOnly;
      note = MSG.translationNoFace;
    }
  }
  if (charged === TranslationMode.VoiceOnly) await replaceSound(video, ext, { file: dub, ext: 'm4a' }, total, output);
  const duration = (await probe(output, 'mp4')).duration;
  const cover = await makeCover(output, 'mp4', path.join(dir, 'cover.jpg'), { at: Math.min(0.5, duration / 2), width: 480 });
  const storedVideo = await storeUserFile(ctx, record.user_id, output, 'mp4', 'video', duration);
  const storedCover = await storeUserFile(ctx, record.user_id, cover, 'jpg', 'image');

  // Settled on the result's length: what was reserved beyond it goes back.
  const price = Math.min(Number(record.reserved), translateCredits(duration, charged));
  const done = await ctx.db.tx(async (q) => {
    const ok = await new TranslationRepository(q).succeed(record.id, { videoKey: storedVideo.key, coverKey: storedCover.key, duration, charged: price, reason: note });
    if (ok && record.spend_entry_id !== null && price < Number(record.reserved)) {
      await refundIn(q, { userId: record.user_id, spendEntryId: record.spend_entry_id, amount: Number(record.reserved) - price, action: '视频翻译按时长结算退回', key: `translate:${record.id}:settle` });
    }
    return ok;
  });
  await deleteObjects(ctx, done ? [dubKey] : [storedVideo.key, storedCover.key]);
}

/** Asks the chat engine for the segments' translations as a JSON array of the same length; once more if it answers otherwise. */
async function translateLines(ctx: FeatureContext, transcript: Transcript, from: string, to: string): Promise<string[]> {
  const chat = resolveChatConfig(ctx.config.chat, await ctx.settings.all());
  if (!chat) throw new TranslationRefused(MSG.translationChatMissing);
  const texts = transcript.segments.map((s) => s.text);
  const system =
    `You translate a video's subtitles from ${PROMPT_LANGUAGE[from]} to ${PROMPT_LANGUAGE[to]} for dubbing. ` +
    `The user sends a JSON array of ${texts.length} sentences. Answer with only a JSON array of exactly ${texts.length} strings: ` +
    'the translation of each sentence, in the same order, one for one; never merge, split, drop or add sentences. ' +
    'Keep each about as long to speak as the original.';
  const messages: ChatMessage[] = [{ role: 'system', content: system }, { role: 'user', content: JSON.stringify(texts) }];
  try {
    return await askJson(new OpenAiCompatibleChat(chat), messages, (json) => translatedLines(json, texts.length), { temperature: 0.2 });
  } catch (err) {
    if (err instanceof ChatAnswerInvalid) throw new TranslationRefused(MSG.translationLinesMismatch);
    throw err;
  }
}

interface Dubbing {
  video: string;
  ext: string;
  sound: string;
  total: number;
  output: string;
  dir: string;
}

/** An engine and a voice to speak the translated lines with. */
interface Speaker {
  engine: SpeechEngine;
  voice: EngineVoice | undefined;
  language: string;
}

/** The first enabled voice channel whose engine clones and can discard a clone after (so none is left behind). */
async function cloningChannel(ctx: FeatureContext): Promise<{ api: string; name: string; engine: SpeechEngine } | undefined> {
  for (const channel of await new VoicesRepository(ctx.db).enabledVoiceChannels()) {
    if (channel.engine === 'local') continue;
    try {
      const engine = ctx.speech.engines.for(channel);
      if (engine.discard) return { api: channel.api, name: channel.name, engine };
    } catch (err) {
      // A channel missing its settings is not one to clone on.
      if (!(err instanceof SpeechEngineError)) throw err;
    }
  }
  return undefined;
}

/**
 * Step 4: clones the speaker from the video's recognised speech on a cloning channel when there is one, else (or
 * when that fails) the offline voice; kept on the record before any speech is made, so a retry never clones twice.
 */
async function chooseVoice(ctx: FeatureContext, record: TranslationRow, transcript: Transcript, m: Dubbing): Promise<{ voice: string; clone: DubClone | null }> {
  const channel = await cloningChannel(ctx);
  let chosen: { voice: string; clone: DubClone | null } = { voice: MSG.translationVoiceOffline, clone: null };
  if (channel) {
    try {
      const sample = await speechSample(transcript, m);
      const state = await cloneVoice(channel.engine, { file: sample, ext: 'wav', name: record.name, trainingKey: `tr${record.id}` });
      if (state.state === 'ready') chosen = { voice: MSG.translationVoiceCloned(channel.name), clone: { api: channel.api, voice: state.voice } };
      else chosen.voice = MSG.translationVoiceCloneFailed(state.reason);
    } catch (err) {
      if (!(err instanceof SpeechEngineError)) throw err;
      chosen.voice = MSG.translationVoiceCloneFailed(err.message);
    }
  }
  await new TranslationRepository(ctx.db).saveVoice(record.id, chosen.voice, chosen.clone);
  return chosen;
}

/** A clone, waited for a while when the provider trains it; one that is not ready by then is discarded. */
async function cloneVoice(engine: SpeechEngine, sample: CloneSample): Promise<Exclude<TrainingState, { state: 'training' }>> {
  let state = await engine.clone(sample);
  for (let poll = 0; state.state === 'training' && poll < CLONE_POLLS; poll++) {
    await setTimeout(CLONE_POLL_MS);
    const started: EngineVoice = state.voice;
    state = await engine.trainingState(started.remoteId).catch(async (err: unknown) => {
      // The training's error is the one the record shows; the discard is only tidying up.
      await engine.discard?.(started).catch(() => undefined);
      throw err;
    });
  }
  if (state.state !== 'training') return state;
  await engine.discard?.(state.voice);
  return { state: 'failed', reason: MSG.translationVoiceCloneSlow };
}

/** A clean sample of the speaker: the recognised speech spans of the sound track, joined, at most CLONE_SAMPLE_SECONDS. */
async function speechSample(transcript: Transcript, m: Dubbing): Promise<string> {
  const spans: Transcript['segments'] = [];
  let seconds = 0;
  for (const s of transcript.segments) {
    if (seconds >= CLONE_SAMPLE_SECONDS) break;
    spans.push(s);
    seconds += s.end - s.start;
  }
  const sample = path.join(m.dir, 'clone-sample.wav');
  await joinSoundSpans(m.video, m.ext, spans, CLONE_SAMPLE_SECONDS, sample);
  return sample;
}

/** The clone's engine and voice, or the offline engine at the original speaker's measured pitch and pace. */
async function speaker(ctx: FeatureContext, clone: DubClone | null, target: string, sound: string): Promise<Speaker> {
  if (clone) return { engine: (await ctx.speech.channelEngine(clone.api)).engine, voice: clone.voice, language: target };
  let voice: EngineVoice | undefined;
  try {
    voice = { remoteId: '', profile: { ...(await measureVoice(sound, 'wav')) } };
  } catch (err) {
    if (!(err instanceof SampleHasNoSpeech)) throw err;
  }
  return { engine: (await ctx.speech.channelEngine('local')).engine, voice, language: SPEECH_LANGUAGE[target] ?? '' };
}

/** Removes a record's clone from its channel (best effort: a channel since removed keeps nothing we can reach). */
async function discardClone(ctx: FeatureContext, id: number, clone: DubClone | null): Promise<void> {
  if (!clone) return;
  try {
    await (await ctx.speech.channelEngine(clone.api)).engine.discard?.(clone.voice);
  } catch (err) {
    if (!(err instanceof SpeechEngineError)) throw err;
  }
  await new TranslationRepository(ctx.db).dropClone(id);
}

/**
 * Speaks each line with the speaker's voice, fits it into its segment's slot and lays the speech over the
 * original sound kept low; writes `output` (AAC, the video's length).
 */
async function dubSpeech(transcript: Transcript, lines: string[], speaker: Speaker, m: Dubbing): Promise<PlacedSpeech[]> {
  const params = { rate: 1, volume: 1, pitch: 1, language: speaker.language, emotion: '' };
  const files: string[] = [];
  const seconds: number[] = [];
  for (const [i, line] of lines.entries()) {
    const file = path.join(m.dir, `line-${i}.mp3`);
    await speaker.engine.synthesize(line, speaker.voice, params, file);
    files.push(file);
    seconds.push((await probe(file, 'mp3')).duration);
  }
  const placed = fitSlots(transcript.segments, seconds, m.total);
  const speech = placed.map((p, i) => ({ ...p, file: files[i]!, ext: 'mp3' }));
  await laySpeechOver({ file: m.video, ext: m.ext }, speech, { seconds: m.total, backgroundLevel: BACKGROUND_LEVEL, output: m.output });
  return placed;
}

/** Mode 1: the picture re-rendered with its mouth following the new speech; false when there is no face to move. */
async function lipSync(video: string, ext: string, dub: string, output: string, dir: string): Promise<boolean> {
  const normalized = path.join(dir, 'normalized.mp4');
  await normaliseVideo(video, ext, normalized);
  const faces = path.join(dir, 'faces.bin');
  const analysis = await analyseAvatarFaces(normalized, faces);
  if (!analysis.found) return false;
  await renderLipSync({ video: normalized, faces, audio: dub, audioExt: 'm4a', output });
  return true;
}
