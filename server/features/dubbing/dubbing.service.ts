/**
 * The dubbing studio. A submit checks every line's voice (own or public, trained), prices each line at its voice
 * channel's dubbing price (free on the offline engine), reserves that and queues one job. The job speaks each line
 * with its voice and settings, trims each stretch's silent edges and measures it, joins the stretches with their
 * pauses and the gap into one track (each line's cue comes from those real lengths, not from an estimate; inside a
 * line, the SRT places its words by the stretches the speech engine answered), lays the background music under it
 * when there is one (ducked under the speech, faded in and out; the timing unchanged), and keeps the mp3 and its SRT. The price settles on the characters spoken; a failure refunds it all, and the
 * record says which line failed and why.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DUBBING_IN_PROGRESS, LIMITS, MSG, countChars, dubbingCredits, parseMusicTrackRef, type CallParsedRequest, type API, type TimedText } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { ApiError } from '../../infra/http';
import { probe } from '../../infra/media-probe';
import type { JobRun } from '../../infra/queue';
import { JobRefused, runPaidJob } from '../../infra/paid-job';
import { fetchObject } from '../../infra/storage';
import { deleteObjects, fileIdOf, storeUserFile } from '../../infra/user-files';
import { withWorkDir } from '../../infra/work-dirs';
import { duckMusicUnder, sequenceSounds, speechStretch } from '../../engines/media';
import { SpeechEngineError } from '../../engines/speech';
import { refundIn, spendOrRefuse } from '../credits';
import { MusicRepository } from '../music';
import { DubbingRepository, ownedKeys, type DubbingRow, type StoredLine } from './dubbing.repository';
import { dubbingSrt, lineSentences, placeLines, silencesAfter } from './dubbing.timeline';

type Submission = CallParsedRequest<typeof API.dubbing.create>;

/** A stretch shorter than this held no speech. */
const MIN_STRETCH_SECONDS = 0.05;
const D = LIMITS.dubbing;

/** A channel's dubbing price per unit: nothing on the offline engine, whatever the column says. */
export const dubPrice = (channel: { engine: string; dub_credits: number }) => (channel.engine === 'local' ? 0 : Number(channel.dub_credits));

/** Each enabled voice channel's dubbing price, as the screen shows it before generating. */
export async function dubbingPrices(ctx: FeatureContext) {
  return (await new DubbingRepository(ctx.db).channelPrices()).map((c) => ({ api: c.api, name: c.name, credits: dubPrice(c) }));
}

/** The music under a dub: a music-library track (or the user's own music), else an audio of their material library. */
async function chosenMusic(ctx: FeatureContext, repo: DubbingRepository, s: Submission, userId: number): Promise<{ fileId: number } | undefined> {
  if (s.bgm !== undefined) {
    const key = await new MusicRepository(ctx.db).usableTrack(parseMusicTrackRef(s.bgm), userId);
    const fileId = key ? await fileIdOf(ctx.db, key) : undefined;
    if (fileId === undefined) throw new ApiError(MSG.dubBgmMissing);
    return { fileId };
  }
  if (s.bgm_id === undefined) return undefined;
  const music = await repo.ownMusic(s.bgm_id, userId);
  if (!music) throw new ApiError(MSG.dubBgmMissing);
  return music;
}

/** Records, charges and queues one dub; answers its id. Every refusal names the line it is about. */
export async function submitDubbing(ctx: FeatureContext, userId: number, s: Submission): Promise<number> {
  for (const [i, line] of s.lines.entries()) {
    try {
      await ctx.speech.usableVoice(ctx.db, line.voice_id!, userId);
    } catch (err) {
      if (err instanceof ApiError) throw new ApiError(MSG.dubLine(i + 1, err.message));
      throw err;
    }
  }
  const repo = new DubbingRepository(ctx.db);
  const voices = await repo.voices([...new Set(s.lines.map((l) => l.voice_id!))], userId);
  const lines: StoredLine[] = s.lines.map((l) => {
    const voice = voices.get(l.voice_id!)!;
    return { ...l, voice_id: voice.id, voice_name: voice.name, api: voice.api, chars: countChars(l.text), per_unit: dubPrice(voice) };
  });
  const music = await chosenMusic(ctx, repo, s, userId);
  const chars = lines.reduce((n, l) => n + l.chars, 0);
  const reserved = dubbingCredits(lines.map((l) => ({ chars: l.chars, perUnit: l.per_unit })));
  return await ctx.db.tx(async (q) => {
    const records = new DubbingRepository(q);
    const id = await records.add({ userId, name: s.name, lines, gap: s.gap, bgmFileId: music?.fileId ?? null, bgmVolume: s.bgm_volume, chars, reserved });
    if (reserved > 0) {
      const spend = await spendOrRefuse(q, { userId, amount: reserved, action: '配音', key: `dubbing:${id}` });
      await records.setSpend(id, spend.entryId);
    }
    // A provider may take a while a line; the queue must not take a long dub for stuck.
    await ctx.queue.send('dubbing-run', { dubbingId: id }, { runsUpToSeconds: 120 + 30 * lines.length }, q);
    return id;
  });
}

/** Deletes a finished or failed dub and its files (a copy saved to the material library stays). */
export async function removeDubbing(ctx: FeatureContext, userId: number, id: number): Promise<void> {
  const removed = await new DubbingRepository(ctx.db).removeFinished(id, userId, { missing: MSG.dubRecordMissing, busy: MSG.dubBusy });
  await deleteObjects(ctx, ownedKeys(removed));
}

/** A failure the input or a voice caused: the dub fails at once with this reason, no retry. */
class DubbingRefused extends JobRefused {}

/** A line the speech engine could not speak. */
class LineFailed extends Error {
  constructor(
    readonly line: number,
    readonly engineError: SpeechEngineError,
  ) {
    super(engineError.message);
  }
}

async function failRecord(ctx: FeatureContext, id: number, why: string): Promise<void> {
  await ctx.db.tx(async (q) => {
    const failed = await new DubbingRepository(q).failPaid(id, (refunded) => MSG.dubFailed(why, refunded));
    if (failed?.refund) await refundIn(q, { ...failed.refund, action: '配音失败退回', key: `dubbing:${id}:failed` });
  });
}

/** The job of a dub, on the paid-job runner: a dub no longer in progress is left alone; a refused input or a line the
 * engine refuses for good fails it at once, anything else on the last attempt; each failure refunds what was reserved. */
export async function runDubbing(ctx: FeatureContext, dubbingId: number, job: JobRun): Promise<void> {
  const repo = new DubbingRepository(ctx.db);
  const lineReason = (err: unknown) => (err instanceof LineFailed ? MSG.dubLineFailed(err.line, err.message) : undefined);
  await runPaidJob(job, {
    load: () => repo.get(dubbingId),
    isOpen: (record) => (DUBBING_IN_PROGRESS as readonly number[]).includes(Number(record.status)),
    run: async (record) => {
      await repo.start(dubbingId);
      await withWorkDir(ctx.config.dataDir, (dir) => dub(ctx, record, dir));
    },
    fail: (_record, why) => failRecord(ctx, dubbingId, why),
    permanent: (err) => (err instanceof LineFailed && !err.engineError.transient ? lineReason(err) : undefined),
    lastReason: (err) => lineReason(err) ?? MSG.dubFailedUnknown,
  });
}

async function dub(ctx: FeatureContext, record: DubbingRow, dir: string): Promise<void> {
  const repo = new DubbingRepository(ctx.db);
  const lines = record.lines;
  const after = silencesAfter(lines, Number(record.gap));
  const lengths: number[] = [];
  /** Per line: the engine's stretches in its speech file, and the seconds trimmed off that file's start. */
  const said: { stretches: TimedText[]; lead: number }[] = [];
  const parts: { file: string; ext: string; after: number }[] = [];
  for (const [i, line] of lines.entries()) {
    const voice = await ctx.speech.readyVoice(line.voice_id, record.user_id);
    if (!voice) throw new DubbingRefused(MSG.dubLine(i + 1, MSG.dubVoiceGone));
    const params = {
      rate: line.rate ?? Number(voice.rate), volume: line.volume ?? Number(voice.volume), pitch: line.pitch ?? Number(voice.pitch),
      language: '', emotion: line.emotion ?? '',
    };
    const spoken = path.join(dir, `line-${i}.mp3`);
    let stretches: TimedText[];
    try {
      stretches = await ctx.speech.synthesize(voice, line.text, params, spoken);
    } catch (err) {
      if (err instanceof SpeechEngineError) throw new LineFailed(i + 1, err);
      throw err;
    }
    const stretch = path.join(dir, `line-${i}.wav`);
    const { seconds, lead } = await speechStretch({ file: spoken, ext: 'mp3' }, stretch);
    if (seconds < MIN_STRETCH_SECONDS) throw new DubbingRefused(MSG.dubLineSilent(i + 1));
    lengths.push(seconds);
    said.push({ stretches, lead });
    parts.push({ file: stretch, ext: 'wav', after: after[i]! });
  }
  const cues = placeLines(lengths, after);

  const output = path.join(dir, 'dub.mp3');
  const musicKey = record.bgm_file_id === null ? undefined : await repo.musicKey(record.bgm_file_id);
  if (record.bgm_file_id !== null && !musicKey) throw new DubbingRefused(MSG.dubBgmMissing);
  if (musicKey) {
    const speech = path.join(dir, 'speech.wav');
    const joined = await sequenceSounds(parts, speech);
    const ext = musicKey.slice(musicKey.lastIndexOf('.') + 1);
    const music = await fetchObject(ctx.storage, musicKey, path.join(dir, `music.${ext}`));
    await duckMusicUnder({ file: speech, ext: 'wav' }, { file: music, ext }, {
      seconds: joined.duration, volume: Number(record.bgm_volume), fadeIn: D.bgmFadeInSeconds, fadeOut: D.bgmFadeOutSeconds, output,
    });
  } else {
    await sequenceSounds(parts, output);
  }
  const duration = (await probe(output, 'mp3')).duration;
  const srtFile = path.join(dir, 'dub.srt');
  fs.writeFileSync(srtFile, dubbingSrt(lines.flatMap((line, i) => lineSentences(line.text, cues[i]!, said[i]!.stretches, said[i]!.lead))));
  const audio = await storeUserFile(ctx, record.user_id, output, 'mp3', 'voice', duration);
  const srt = await storeUserFile(ctx, record.user_id, srtFile, 'srt', 'other');

  // Settled on the characters spoken (every line, once done); what was reserved beyond that goes back.
  const reserved = Number(record.reserved);
  const charged = Math.min(reserved, dubbingCredits(lines.map((l) => ({ chars: l.chars, perUnit: l.per_unit }))));
  const done = await ctx.db.tx(async (q) => {
    const ok = await new DubbingRepository(q).succeed(record.id, { audioKey: audio.key, srtKey: srt.key, duration, cues, charged });
    if (ok && record.spend_entry_id !== null && charged < reserved) {
      await refundIn(q, { userId: record.user_id, spendEntryId: record.spend_entry_id, amount: reserved - charged, action: '配音按字数结算退回', key: `dubbing:${record.id}:settle` });
    }
    return ok;
  });
  if (!done) await deleteObjects(ctx, [audio.key, srt.key]);
}
