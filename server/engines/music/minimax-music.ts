/**
 * MiniMax music generation (base URL is configuration: api.minimaxi.com, api.minimax.io, or a relay):
 *
 * - POST /v1/music_generation {model, prompt, lyrics?, is_instrumental, output_format, audio_setting} answers, when
 *   done, data.audio — the audio as hex (output_format "hex") or a link that expires after a day ("url") — with
 *   data.status 2 and extra_info.music_duration (ms). A song needs lyrics; an instrumental needs none.
 * - POST /v1/lyrics_generation {mode: "write_full_song", prompt, title?} answers lyrics with section tags
 *   ([Verse], [Chorus] …), song_title and style_tags.
 * Every answer carries base_resp {status_code, status_msg}; status_code ≠ 0 is an error even on HTTP 200. Bearer
 * auth; `?GroupId=` when the key is the voice channel's and it names a group. Nothing here logs, so keys never do.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { MSG } from '../../../src/contract';
import { downloadWithDeadline, fetchWithDeadline, parseJsonBody, ProviderDownloadTooLarge, ProviderUnreachable, trimBaseUrl } from '../provider-http';

export const MINIMAX_MUSIC_DEFAULT_BASE_URL = 'https://api.minimaxi.com';
export const MINIMAX_MUSIC_DEFAULT_MODEL = 'music-2.6';
/** A song takes the service a minute or two: one request waits this long for its answer. */
const GENERATE_TIMEOUT_MS = 10 * 60_000;
const LYRICS_TIMEOUT_MS = 2 * 60_000;
const DOWNLOAD_TIMEOUT_MS = 5 * 60_000;
/** A result larger than an upload may be is refused like one. */
export const MUSIC_RESULT_MAX_BYTES = 20 * 1024 * 1024;

export interface MiniMaxMusicConfig {
  baseUrl: string;
  apiKey: string;
  model: string;
  groupId?: string;
  /** How the audio comes back: a link (copied at once, it expires) or hex in the answer. */
  outputFormat?: 'url' | 'hex';
  timeoutMs?: number;
}

/** A provider failure: `message` is the user's Chinese reason, `detail` for the log; transient ones are retried. */
export class MusicEngineError extends Error {
  constructor(message: string, readonly detail: string, readonly transient = false) {
    super(message);
  }
}

/** base_resp.status_code → the user's reason and whether trying again later may help (MiniMax's error-code table). */
export function minimaxMusicReason(code: number, message: string): { reason: string; transient: boolean } {
  if ([1002, 1039, 1041, 2045, 2056].includes(code)) return { reason: MSG.musicBusyProvider, transient: true };
  if ([1000, 1001, 1013, 1024, 1033].includes(code)) return { reason: MSG.musicProviderDown, transient: true };
  if (code === 1004 || code === 2049) return { reason: MSG.musicKeyInvalid, transient: false };
  if (code === 1008) return { reason: MSG.musicBalance, transient: false };
  if (code === 1026 || code === 1027) return { reason: MSG.musicSensitive, transient: false };
  return { reason: MSG.musicRejected(message || `MiniMax ${code}`), transient: false };
}

interface BaseResp {
  base_resp?: { status_code?: number; status_msg?: string };
}

export interface MusicRequest {
  prompt: string;
  lyrics: string;
  instrumental: boolean;
}

export class MiniMaxMusic {
  constructor(private readonly config: MiniMaxMusicConfig) {}

  private async post<T extends BaseResp>(route: string, body: unknown, timeoutMs: number): Promise<T> {
    const group = this.config.groupId ? `?GroupId=${encodeURIComponent(this.config.groupId)}` : '';
    let res;
    try {
      res = await fetchWithDeadline(`${trimBaseUrl(this.config.baseUrl)}${route}${group}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.config.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }, this.config.timeoutMs ?? timeoutMs);
    } catch (err) {
      if (err instanceof ProviderUnreachable) throw new MusicEngineError(MSG.musicUnreachable, err.message, true);
      throw err;
    }
    const reply = parseJsonBody(res.body) as T | undefined;
    if (res.status === 401 || res.status === 403) throw new MusicEngineError(MSG.musicKeyInvalid, `HTTP ${res.status}`);
    if (res.status === 429 || res.status >= 500) throw new MusicEngineError(res.status === 429 ? MSG.musicBusyProvider : MSG.musicProviderDown, `HTTP ${res.status}`, true);
    if (!reply || typeof reply !== 'object') throw new MusicEngineError(MSG.musicProviderDown, `HTTP ${res.status}, not JSON`, true);
    const code = Number(reply.base_resp?.status_code ?? (res.status >= 300 ? -1 : 0));
    if (code !== 0 || res.status >= 300) {
      const { reason, transient } = minimaxMusicReason(code, reply.base_resp?.status_msg ?? '');
      throw new MusicEngineError(reason, `HTTP ${res.status}, code ${code}: ${reply.base_resp?.status_msg ?? ''}`, transient);
    }
    return reply;
  }

  /** Lyrics with section tags written from a description (a song submitted without its own). */
  async writeLyrics(prompt: string, title: string): Promise<string> {
    const reply = await this.post<BaseResp & { lyrics?: string }>('/v1/lyrics_generation', { mode: 'write_full_song', prompt, title }, LYRICS_TIMEOUT_MS);
    const lyrics = typeof reply.lyrics === 'string' ? reply.lyrics.trim() : '';
    if (!lyrics) throw new MusicEngineError(MSG.musicLyricsFailed, 'lyrics_generation answered no lyrics');
    return lyrics;
  }

  /** Generates the music into `dir`; answers the local file (its format still to be checked by content). */
  async generate(request: MusicRequest, dir: string): Promise<string> {
    const outputFormat = this.config.outputFormat ?? 'url';
    const body: Record<string, unknown> = {
      model: this.config.model,
      prompt: request.prompt,
      is_instrumental: request.instrumental,
      output_format: outputFormat,
      audio_setting: { sample_rate: 44100, bitrate: 256000, format: 'mp3' },
    };
    if (!request.instrumental) body.lyrics = request.lyrics;
    const reply = await this.post<BaseResp & { data?: { audio?: string; status?: number } }>('/v1/music_generation', body, GENERATE_TIMEOUT_MS);
    const audio = reply.data?.audio ?? '';
    if (reply.data?.status !== 2 || !audio) throw new MusicEngineError(MSG.musicProviderDown, `answered status ${reply.data?.status ?? '-'} without audio`, true);
    const file = path.join(dir, 'music.bin');
    if (/^https?:\/\//.test(audio)) {
      try {
        const got = await downloadWithDeadline(audio, file, DOWNLOAD_TIMEOUT_MS, MUSIC_RESULT_MAX_BYTES);
        if (got.status < 200 || got.status >= 300) throw new MusicEngineError(MSG.musicProviderDown, `result download HTTP ${got.status}`, got.status >= 500 || got.status === 429);
      } catch (err) {
        if (err instanceof ProviderUnreachable) throw new MusicEngineError(MSG.musicUnreachable, `result download: ${err.message}`, true);
        if (err instanceof ProviderDownloadTooLarge) throw new MusicEngineError(MSG.musicResultInvalid, 'result too large');
        throw err;
      }
    } else {
      if (!/^(?:[0-9a-fA-F]{2})+$/.test(audio)) throw new MusicEngineError(MSG.musicResultInvalid, 'audio neither a link nor hex');
      if (audio.length / 2 > MUSIC_RESULT_MAX_BYTES) throw new MusicEngineError(MSG.musicResultInvalid, 'result too large');
      await fs.writeFile(file, Buffer.from(audio, 'hex'));
    }
    return file;
  }
}
