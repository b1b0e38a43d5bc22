/**
 * A protocol peer for GPT-SoVITS's api_v2.py (the commit gpt-sovits.ts names): GET /set_refer_audio and POST /tts
 * with its parameter checks (required fields, v2 languages, media types, cut methods, references of 3–10 s read
 * from its own disk), answering real WAV audio or 400 with `{message, Exception?}`, over real HTTP.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { parseJsonBody, sendJson, stillWaitingAfter, speechLikeWav, startLoopback, wavSeconds } from './loopback';

const LANGUAGES = ['auto', 'auto_yue', 'en', 'zh', 'ja', 'yue', 'ko', 'all_zh', 'all_ja', 'all_yue', 'all_ko'];
const CUT_METHODS = ['cut0', 'cut1', 'cut2', 'cut3', 'cut4', 'cut5'];
const MEDIA_TYPES = ['wav', 'raw', 'ogg', 'aac'];
const WAV_RATE = 32_000;

export interface GptSovitsPeer {
  url: string;
  /** Our mount of the shared folder (the channel's share_dir). */
  shareDir: string;
  /** The same folder as the server names it (the channel's server_dir). */
  serverDir: string;
  /** Knob: loading a reference fails as if the file were unreadable. */
  failReference: boolean;
  /** Knob: every answer waits this long first. */
  delayMs: number;
  /** Knob: the next N /tts calls answer 500, as a server that crashed mid-request. */
  failTtsNext: number;
  references: string[];
  tts: Record<string, unknown>[];
  close(): Promise<void>;
}

export async function startGptSovitsPeer(): Promise<GptSovitsPeer> {
  const shareDir = await fs.mkdtemp(path.join(os.tmpdir(), 'aisa-gpt-sovits-peer-'));
  const serverDir = '/srv/gpt-sovits/shared';
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'aisa-gpt-sovits-scratch-'));

  /** Reads a reference the way the server would: a path on its disk (the shared folder), 3–10 s of audio. */
  const loadReference = async (serverPath: string): Promise<string | undefined> => {
    const local = serverPath.startsWith(`${serverDir}/`) ? path.join(shareDir, serverPath.slice(serverDir.length + 1)) : undefined;
    const bytes = local ? await fs.readFile(local).catch(() => undefined) : undefined;
    if (!bytes) return `${serverPath} not exists`;
    const seconds = wavSeconds(bytes);
    if (seconds === undefined || peer.failReference) return 'Error opening audio file';
    if (seconds < 3 || seconds > 10) return '参考音频在3~10秒范围外，请更换！';
    return undefined;
  };

  const setReference = async (url: URL, res: http.ServerResponse) => {
    const refPath = url.searchParams.get('refer_audio_path') ?? '';
    peer.references.push(refPath);
    const problem = await loadReference(refPath);
    if (problem) return sendJson(res, 400, { message: 'set refer audio failed', Exception: problem });
    sendJson(res, 200, { message: 'success' });
  };

  const tts = async (json: Record<string, unknown>, res: http.ServerResponse) => {
    if (peer.failTtsNext > 0) {
      peer.failTtsNext--;
      return sendJson(res, 500, { detail: 'Internal Server Error' });
    }
    const field = (k: string) => (typeof json[k] === 'string' ? (json[k] as string) : '');
    if (!field('ref_audio_path')) return sendJson(res, 400, { message: 'ref_audio_path is required' });
    if (!field('text')) return sendJson(res, 400, { message: 'text is required' });
    if (!field('text_lang')) return sendJson(res, 400, { message: 'text_lang is required' });
    if (!LANGUAGES.includes(field('text_lang').toLowerCase())) return sendJson(res, 400, { message: `text_lang: ${field('text_lang')} is not supported in version v2` });
    if (!field('prompt_lang')) return sendJson(res, 400, { message: 'prompt_lang is required' });
    if (!LANGUAGES.includes(field('prompt_lang').toLowerCase())) return sendJson(res, 400, { message: `prompt_lang: ${field('prompt_lang')} is not supported in version v2` });
    const media = json.media_type ?? 'wav';
    if (typeof media !== 'string' || !MEDIA_TYPES.includes(media)) return sendJson(res, 400, { message: `media_type: ${String(media)} is not supported` });
    if (!CUT_METHODS.includes((json.text_split_method as string | undefined) ?? 'cut5')) return sendJson(res, 400, { message: `text_split_method:${String(json.text_split_method)} is not supported` });
    if (json.streaming_mode !== undefined && json.streaming_mode !== false && json.streaming_mode !== 0) return sendJson(res, 400, { message: 'this peer answers non-streaming requests only' });
    const problem = await loadReference(field('ref_audio_path'));
    if (problem) return sendJson(res, 400, { message: 'tts failed', Exception: problem });
    const speed = typeof json.speed_factor === 'number' && json.speed_factor > 0 ? json.speed_factor : 1;
    peer.tts.push(json);
    const wav = await speechLikeWav(scratch, field('text'), WAV_RATE, 0.12 / speed);
    res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': wav.length });
    res.end(wav);
  };

  const loop = await startLoopback(async (req, body, res) => {
    if (peer.delayMs > 0 && !(await stillWaitingAfter(res, peer.delayMs))) return;
    const url = new URL(req.url ?? '/', 'http://peer');
    if (req.method === 'GET' && url.pathname === '/set_refer_audio') return setReference(url, res);
    if (req.method === 'POST' && url.pathname === '/tts') {
      const json = parseJsonBody(req, body);
      if (!json) return sendJson(res, 422, { detail: [{ msg: 'expected a JSON body' }] });
      return tts(json, res);
    }
    sendJson(res, 404, { detail: 'Not Found' });
  });

  const peer: GptSovitsPeer = {
    url: loop.url, shareDir, serverDir, failReference: false, delayMs: 0, failTtsNext: 0, references: [], tts: [],
    close: async () => {
      await loop.close();
      await fs.rm(shareDir, { recursive: true, force: true });
      await fs.rm(scratch, { recursive: true, force: true });
    },
  };
  return peer;
}
