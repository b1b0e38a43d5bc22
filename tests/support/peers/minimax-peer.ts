/**
 * A protocol peer for MiniMax: a loopback HTTP server that speaks the real API — POST /v1/files/upload (multipart),
 * POST /v1/voice_clone, POST /v1/delete_voice, POST /v1/t2a_v2 with Bearer auth, `?GroupId=`, int64 file ids, hex audio and errors as
 * base_resp.status_code on HTTP 200 — and checks request shapes the way the service does.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { probe } from '../../../server/infra/media-probe';
import { parseJsonBody, parseMultipart, peerWorkspace, sendJson, sendRawJson, stillWaitingAfter, startLoopback } from './loopback';

export const MINIMAX_MODELS = ['speech-2.8-hd', 'speech-2.8-turbo', 'speech-2.6-hd', 'speech-2.6-turbo', 'speech-02-hd', 'speech-02-turbo', 'speech-01-hd', 'speech-01-turbo'];
const SYSTEM_VOICES = ['male-qn-qingse', 'female-shaonv', 'female-yujie', 'female-tianmei'];
const EMOTIONS = ['happy', 'sad', 'angry', 'fearful', 'disgusted', 'surprised', 'calm', 'fluent', 'whisper'];
const LANGUAGE_BOOSTS = [
  'Chinese', 'Chinese,Yue', 'English', 'Arabic', 'Russian', 'Spanish', 'French', 'Portuguese', 'German', 'Turkish', 'Dutch', 'Ukrainian',
  'Vietnamese', 'Indonesian', 'Japanese', 'Italian', 'Korean', 'Thai', 'Polish', 'Romanian', 'Greek', 'Czech', 'Finnish', 'Hindi', 'auto',
];
const PURPOSES = ['voice_clone', 'prompt_audio', 't2a_async_input', 'retrieval', 'fine-tune', 'assistants'];
/** File ids above 2^53, as the int64 ids of the real service can be: a client that parses them as doubles loses digits. */
const FIRST_FILE_ID = 2n ** 53n + 11n;
const VOICE_ID = /^[A-Za-z][A-Za-z0-9_-]{6,254}[A-Za-z0-9]$/;

export interface MiniMaxPeerFile {
  id: string;
  purpose: string;
  filename: string;
  size: number;
  /** Measured by ffprobe, as the service checks a clone sample's length. */
  seconds: number;
}

export interface MiniMaxPeer {
  url: string;
  apiKey: string;
  /** Knob: the next N authorized calls answer base_resp with `rateLimitCode`. */
  rateLimitNext: number;
  rateLimitCode: number;
  /** Knob: the next N calls answer HTTP 502. */
  httpErrorNext: number;
  /** Knob: voice_clone answers this code (0 = behave normally). */
  cloneErrorCode: number;
  /** Knob: every answer waits this long first. */
  delayMs: number;
  /** Knob: t2a_v2 refuses a text containing this as sensitive content (code 1026), as the service does; '' = never. */
  refuseText: string;
  files: Map<string, MiniMaxPeerFile>;
  voices: Set<string>;
  clones: { raw: string; body: Record<string, unknown> }[];
  t2a: Record<string, unknown>[];
  /** `GroupId` of every request ('' when absent). */
  groupIds: string[];
  requests: { method: string; path: string }[];
  tone: Buffer;
  close(): Promise<void>;
}

const MESSAGES: Record<number, string> = {
  1002: 'rate limit exceeded(RPM)',
  1004: "login fail: Please carry the API secret key in the 'Authorization' field of the request header",
  1039: 'rate limit exceeded(TPM)',
  2013: 'invalid params',
  20132: 'invalid samples or voice_id',
  2037: 'voice clone file duration invalid',
  2039: 'voice clone voice id duplicate',
};

const baseResp = (code: number, msg = MESSAGES[code] ?? 'error') => ({ status_code: code, status_msg: code === 0 ? 'success' : msg });
const fail = (res: Parameters<typeof sendJson>[0], code: number, msg?: string) => sendJson(res, 200, { base_resp: baseResp(code, msg) });

/** Pause markers as t2a_v2 accepts them: 0.01–99.99 s, each between two spoken stretches, never two in a row. */
function pausesValid(text: string): boolean {
  const pieces = text.split(/<#([^#]*)#>/);
  for (let i = 1; i < pieces.length; i += 2) {
    const seconds = Number(pieces[i]);
    if (!/^\d+(\.\d{1,2})?$/.test(pieces[i]!) || seconds < 0.01 || seconds > 99.99) return false;
    if (!pieces[i - 1]!.trim() || !pieces[i + 1]!.trim()) return false;
  }
  return true;
}

export async function startMiniMaxPeer(apiKey = 'minimax-test-key'): Promise<MiniMaxPeer> {
  const { dir, tone } = await peerWorkspace('aisa-minimax-peer-');
  const files = new Map<string, MiniMaxPeerFile>();
  const voices = new Set(SYSTEM_VOICES);
  let nextFileId = FIRST_FILE_ID;

  const upload = async (req: Parameters<typeof parseMultipart>[0], body: Buffer, res: Parameters<typeof sendJson>[0]) => {
    const form = await parseMultipart(req, body);
    if (!form) return fail(res, 2013, 'invalid params, expected multipart/form-data');
    const purpose = form.get('purpose');
    const file = form.get('file');
    if (typeof purpose !== 'string' || !PURPOSES.includes(purpose)) return fail(res, 2013, 'invalid params, purpose');
    if (!file || typeof file === 'string' || file.size === 0) return fail(res, 2013, 'invalid params, file');
    const ext = path.extname(file.name).slice(1).toLowerCase();
    if (purpose === 'voice_clone' && !['mp3', 'm4a', 'wav'].includes(ext)) return fail(res, 2013, 'invalid params, file format');
    const id = String(nextFileId++);
    const local = path.join(dir, `${id}.${ext}`);
    await fs.writeFile(local, new Uint8Array(await file.arrayBuffer()));
    const seconds = await probe(local, ext).then((p) => p.duration, () => 0);
    files.set(id, { id, purpose, filename: file.name, size: file.size, seconds });
    // Written by hand: the id must reach the client as the int64 literal the service sends.
    const info = `"bytes":${file.size},"created_at":${Math.floor(Date.now() / 1000)},"filename":${JSON.stringify(file.name)},"purpose":${JSON.stringify(purpose)}`;
    sendRawJson(res, 200, `{"file":{"file_id":${id},${info}},"base_resp":${JSON.stringify(baseResp(0))}}`);
  };

  const voiceClone = (req: Parameters<typeof parseJsonBody>[0], body: Buffer, res: Parameters<typeof sendJson>[0]) => {
    const json = parseJsonBody(req, body);
    if (!json) return fail(res, 2013, 'invalid params, expected application/json');
    const raw = body.toString('utf8');
    peer.clones.push({ raw, body: json });
    // Compare the literal: an id that went through a double would name another file.
    const fileId = /"file_id"\s*:\s*(\d+)/.exec(raw)?.[1];
    const file = fileId ? files.get(fileId) : undefined;
    if (!file || file.purpose !== 'voice_clone') return fail(res, 20132);
    const voiceId = json.voice_id;
    if (typeof voiceId !== 'string' || !VOICE_ID.test(voiceId)) return fail(res, 2013, 'invalid params, voice id wrong');
    if (voices.has(voiceId)) return fail(res, 2039);
    if (peer.cloneErrorCode) return fail(res, peer.cloneErrorCode);
    if (file.seconds < 10 || file.seconds > 300) return fail(res, 2037);
    voices.add(voiceId);
    sendJson(res, 200, { input_sensitive: false, input_sensitive_type: 0, demo_audio: '', base_resp: baseResp(0) });
  };

  const t2a = (req: Parameters<typeof parseJsonBody>[0], body: Buffer, res: Parameters<typeof sendJson>[0]) => {
    const json = parseJsonBody(req, body);
    if (!json) return fail(res, 2013, 'invalid params, expected application/json');
    const invalid = (what: string) => fail(res, 2013, `invalid params, ${what}`);
    if (typeof json.model !== 'string' || !MINIMAX_MODELS.includes(json.model)) return invalid('model');
    if (typeof json.text !== 'string' || !json.text.trim() || json.text.length >= 10_000) return invalid('text');
    if (!pausesValid(json.text)) return invalid('pause marker');
    if (json.stream !== undefined && json.stream !== false) return invalid('this peer answers stream=false only');
    const vs = json.voice_setting as Record<string, unknown> | undefined;
    if (!vs || typeof vs !== 'object') return invalid('voice_setting');
    if (typeof vs.voice_id !== 'string' || !voices.has(vs.voice_id)) return fail(res, 20132);
    if (vs.speed !== undefined && (typeof vs.speed !== 'number' || vs.speed < 0.5 || vs.speed > 2)) return invalid('speed');
    if (vs.vol !== undefined && (typeof vs.vol !== 'number' || vs.vol <= 0 || vs.vol > 10)) return invalid('vol');
    if (vs.pitch !== undefined && (!Number.isInteger(vs.pitch) || (vs.pitch as number) < -12 || (vs.pitch as number) > 12)) return invalid('pitch');
    if (vs.emotion !== undefined && !EMOTIONS.includes(vs.emotion as string)) return invalid('emotion');
    const as = json.audio_setting as Record<string, unknown> | undefined;
    if (!as || as.format !== 'mp3') return invalid('this peer answers audio_setting.format=mp3 only');
    if (as.sample_rate !== undefined && ![8000, 16000, 22050, 24000, 32000, 44100].includes(as.sample_rate as number)) return invalid('sample_rate');
    if (as.bitrate !== undefined && ![32000, 64000, 128000, 256000].includes(as.bitrate as number)) return invalid('bitrate');
    if (as.channel !== undefined && as.channel !== 1 && as.channel !== 2) return invalid('channel');
    if (json.language_boost !== undefined && json.language_boost !== null && !LANGUAGE_BOOSTS.includes(json.language_boost as string)) return invalid('language_boost');
    if (json.output_format !== undefined && json.output_format !== 'hex') return invalid('this peer answers output_format=hex only');
    peer.t2a.push(json);
    if (peer.refuseText && json.text.includes(peer.refuseText)) return fail(res, 1026, 'input new_sensitive');
    sendJson(res, 200, {
      data: { audio: tone.toString('hex'), status: 2, ced: '' },
      extra_info: {
        audio_length: 1000, audio_sample_rate: 44100, audio_size: tone.length, bitrate: 128000, word_count: json.text.length,
        invisible_character_ratio: 0, usage_characters: json.text.length, audio_format: 'mp3', audio_channel: 1,
      },
      trace_id: 'peer-trace',
      base_resp: baseResp(0),
    });
  };

  const deleteVoice = (req: Parameters<typeof parseJsonBody>[0], body: Buffer, res: Parameters<typeof sendJson>[0]) => {
    const json = parseJsonBody(req, body);
    const voiceId = json?.voice_id;
    if (json?.voice_type !== 'voice_cloning' || typeof voiceId !== 'string') return fail(res, 2013, 'invalid params, voice_type or voice_id');
    // System voices are not the account's to delete.
    if (SYSTEM_VOICES.includes(voiceId) || !voices.delete(voiceId)) return fail(res, 2013, 'invalid params, voice_id not found');
    sendJson(res, 200, { voice_id: voiceId, created_time: new Date().toISOString().slice(0, 10), base_resp: baseResp(0) });
  };

  const loop = await startLoopback(async (req, body, res) => {
    const url = new URL(req.url ?? '/', 'http://peer');
    peer.requests.push({ method: req.method ?? '', path: url.pathname });
    peer.groupIds.push(url.searchParams.get('GroupId') ?? '');
    if (peer.delayMs > 0 && !(await stillWaitingAfter(res, peer.delayMs))) return;
    if (peer.httpErrorNext > 0) {
      peer.httpErrorNext -= 1;
      res.writeHead(502, { 'content-type': 'text/html' });
      return void res.end('<html><body>502 Bad Gateway</body></html>');
    }
    // The service answers a bad key on HTTP 200, in base_resp.
    if (req.headers.authorization !== `Bearer ${apiKey}`) return fail(res, 1004);
    if (peer.rateLimitNext > 0) {
      peer.rateLimitNext -= 1;
      return fail(res, peer.rateLimitCode);
    }
    if (req.method !== 'POST') return sendJson(res, 404, { base_resp: baseResp(404, 'not found') });
    if (url.pathname === '/v1/files/upload') return upload(req, body, res);
    if (url.pathname === '/v1/voice_clone') return voiceClone(req, body, res);
    if (url.pathname === '/v1/t2a_v2') return t2a(req, body, res);
    if (url.pathname === '/v1/delete_voice') return deleteVoice(req, body, res);
    sendJson(res, 404, { base_resp: baseResp(404, 'not found') });
  });

  const peer: MiniMaxPeer = {
    url: loop.url, apiKey, rateLimitNext: 0, rateLimitCode: 1002, httpErrorNext: 0, cloneErrorCode: 0, delayMs: 0, refuseText: '',
    files, voices, clones: [], t2a: [], groupIds: [], requests: [], tone,
    close: async () => {
      await loop.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
  return peer;
}
