/**
 * Hold to talk on /employee/talking (issue 32): the browser's recording (MediaRecorder's webm/ogg, or wav/mp3/m4a),
 * checked for size and length, made 16 kHz speech and read by the recognition engine — the same door as the copy
 * extraction's and the translation's. The text comes back for the screen to send as the message; nothing is kept.
 */
import { PerUserRate } from '../../infra/rate-limit';
import fs from 'node:fs/promises';
import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API, LIMITS, MSG, ResultCode, TOKEN_HEADER } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { ApiError, sendResult } from '../../infra/http';
import { playableSeconds } from '../../infra/media-probe';
import { withWorkDir } from '../../infra/work-dirs';
import { AsrFailed, asrConfigFromSettings, transcribe } from '../../engines/asr';
import { extractSpeechWav } from '../../engines/media';
import { FORM_OVERHEAD } from '../upload';

const B = LIMITS.bot;
const FORMATS: readonly string[] = B.hearFormats;

/** The container of a recording, from its name or its type (MediaRecorder names neither reliably). */
function formatOf(filename: string, mimetype: string): string | undefined {
  const ext = path.extname(filename).slice(1).toLowerCase();
  if (FORMATS.includes(ext)) return ext;
  const sub = /^audio\/(?:x-)?([a-z0-9]+)/i.exec(mimetype)?.[1]?.toLowerCase();
  const named = sub === 'mpeg' ? 'mp3' : sub === 'mp4' ? 'm4a' : sub === 'wave' ? 'wav' : sub;
  return named && FORMATS.includes(named) ? named : undefined;
}

export async function hearingReady(ctx: FeatureContext): Promise<boolean> {
  return asrConfigFromSettings(await ctx.settings.all()) !== null;
}

/** What the recording says, or an ApiError with the user's reason. */
export async function hear(ctx: FeatureContext, recording: { bytes: Buffer; filename: string; mimetype: string }, log: FastifyRequest['log']): Promise<string> {
  const asr = asrConfigFromSettings(await ctx.settings.all());
  if (!asr) throw new ApiError(MSG.botHearNoEngine);
  const ext = formatOf(recording.filename, recording.mimetype);
  if (!ext || !recording.bytes.length) throw new ApiError(MSG.botHearUnreadable);
  return withWorkDir(ctx.config.dataDir, async (dir) => {
    const file = path.join(dir, `voice.${ext}`);
    await fs.writeFile(file, recording.bytes);
    // Packets, not the header: MediaRecorder's webm carries no duration.
    const seconds = await playableSeconds(file, ext, 'a').catch(() => 0);
    if (!(seconds > 0)) throw new ApiError(MSG.botHearUnreadable);
    if (seconds > B.hearMaxSeconds + 0.5) throw new ApiError(MSG.botHearTooLong(B.hearMaxSeconds));
    const wav = path.join(dir, 'speech.wav');
    await extractSpeechWav(file, ext, wav).catch(() => {
      throw new ApiError(MSG.botHearUnreadable);
    });
    try {
      const { segments } = await transcribe(asr, wav, 'zh');
      const text = segments.map((s) => s.text).join('').trim();
      if (!text) throw new ApiError(MSG.botHearNothing);
      return text.slice(0, LIMITS.chatMaxChars);
    } catch (err) {
      if (!(err instanceof AsrFailed)) throw err;
      log.warn({ detail: err.detail }, 'voice input not recognised');
      // A recording without speech has no segments to give.
      throw new ApiError(err.message === MSG.translationNoSegments ? MSG.botHearNothing : MSG.botHearFailed);
    }
  });
}

/** bot.hearing, and bot.hear's own multipart route (as upload.voice's). */
export async function registerHearRoutes(ctx: FeatureContext): Promise<void> {
  const { router, app, sessions } = ctx;
  // Each recording is a paid call at the operator's recognition provider.
  const rate = new PerUserRate(B.hearPerMinute);
  router.handle(API.bot.hearing, async () => ({ ready: (await hearingReady(ctx)) ? (1 as const) : (0 as const) }));
  router.handledElsewhere(API.bot.hear);
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { files: 1, fields: 2, parts: 3, fileSize: B.hearMaxBytes } });
    scope.post(API.bot.hear.path, { config: { call: API.bot.hear } }, async (request: FastifyRequest, reply: FastifyReply) => {
      const answer = (code: ResultCode, msg: string, data: unknown = null, status = 200) => sendResult(reply, undefined, code, msg, data, status);
      const token = request.headers[TOKEN_HEADER];
      const user = typeof token === 'string' ? await sessions.authenticate(token) : null;
      if (!user) return answer(ResultCode.SessionExpired, MSG.sessionExpired, null, 401);
      if (!request.isMultipart()) return answer(ResultCode.Error, MSG.botHearAudioRequired);
      const declared = Number(request.headers['content-length']);
      if (Number.isFinite(declared) && declared > B.hearMaxBytes + FORM_OVERHEAD) return answer(ResultCode.Error, MSG.botHearTooLarge, null, 413);
      const part = await request.file().catch(() => undefined);
      if (!part || part.fieldname !== 'file') {
        part?.file.resume();
        return answer(ResultCode.Error, MSG.botHearAudioRequired);
      }
      const bytes = await part.toBuffer().catch(() => null);
      if (!bytes || part.file.truncated) return answer(ResultCode.Error, MSG.botHearTooLarge, null, 413);
      try {
        rate.take(user.id);
        return answer(ResultCode.Ok, '', { text: await hear(ctx, { bytes, filename: part.filename, mimetype: part.mimetype }, request.log) });
      } catch (err) {
        if (err instanceof ApiError) return answer(ResultCode.Error, err.message);
        throw err;
      }
    });
  });
}
