/**
 * A protocol peer for fish-speech as HeyGem / Duix.Avatar ships it: a loopback HTTP server with the two calls
 * Duix.Avatar's client makes (POST /v1/preprocess_and_tran, POST /v1/invoke), reading reference audio from its own
 * data folder (the volume both sides share) and answering real WAV audio, so the adapter is tested over real HTTP.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { parseJsonBody, sendJson, stillWaitingAfter, speechLikeWav, startLoopback, wavSeconds } from './loopback';

/** Where the container sees its data volume; prepared references are named under it. */
export const FISH_SPEECH_CONTAINER_DATA = '/code/data';
/** What the peer's "ASR" hears in every reference. */
export const FISH_SPEECH_PEER_TEXT = '大家好，我是今天的主持人。';
const WAV_RATE = 44_100;

export interface FishSpeechPeer {
  url: string;
  /** The data volume (our side mounts it as the channel's share_dir). */
  dataDir: string;
  /** Knob: preprocessing answers a non-zero code. */
  failTraining: boolean;
  /** Knob: every answer waits this long first. */
  delayMs: number;
  /** Prepared references: asr_format_audio_url → reference text. */
  prepared: Map<string, string>;
  trainings: Record<string, unknown>[];
  invokes: Record<string, unknown>[];
  close(): Promise<void>;
}

const NUMBER_FIELDS = ['topP', 'max_new_tokens', 'chunk_length', 'repetition_penalty', 'temperature'] as const;

export async function startFishSpeechPeer(): Promise<FishSpeechPeer> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'aisa-fish-speech-peer-'));
  const prepared = new Map<string, string>();

  const preprocess = async (json: Record<string, unknown>, res: http.ServerResponse) => {
    peer.trainings.push(json);
    const { format, reference_audio: reference, lang } = json;
    if (typeof format !== 'string' || typeof reference !== 'string' || typeof lang !== 'string') return sendJson(res, 422, { detail: 'format, reference_audio and lang are required' });
    const local = path.resolve(dataDir, reference);
    if (!local.startsWith(dataDir + path.sep)) return sendJson(res, 200, { code: -1, msg: 'reference_audio outside the data folder' });
    const bytes = await fs.readFile(local).catch(() => undefined);
    if (!bytes || wavSeconds(bytes) === undefined) return sendJson(res, 200, { code: -1, msg: `cannot read ${reference}` });
    if (peer.failTraining) return sendJson(res, 200, { code: -1, msg: 'asr found no speech' });
    // The server keeps a formatted copy of the reference and names it as the container sees it.
    const name = `format_audio/${randomUUID()}.wav`;
    await fs.mkdir(path.join(dataDir, 'format_audio'), { recursive: true });
    await fs.writeFile(path.join(dataDir, name), bytes);
    const url = `${FISH_SPEECH_CONTAINER_DATA}/${name}`;
    prepared.set(url, FISH_SPEECH_PEER_TEXT);
    sendJson(res, 200, { code: 0, asr_format_audio_url: url, reference_audio_text: FISH_SPEECH_PEER_TEXT });
  };

  const invoke = async (json: Record<string, unknown>, res: http.ServerResponse) => {
    if (typeof json.text !== 'string' || !json.text.trim()) return sendJson(res, 422, { detail: 'text is required' });
    if (typeof json.speaker !== 'string' || json.format !== 'wav' || json.streaming !== false || json.need_asr !== false) return sendJson(res, 422, { detail: 'bad request fields' });
    if (NUMBER_FIELDS.some((k) => typeof json[k] !== 'number')) return sendJson(res, 422, { detail: `${NUMBER_FIELDS.join(', ')} must be numbers` });
    const reference = typeof json.reference_audio === 'string' ? json.reference_audio : '';
    // The real server fails reading a reference it does not have (an unhandled error: HTTP 500).
    if (!prepared.has(reference) || prepared.get(reference) !== json.reference_text) return sendJson(res, 500, { detail: 'reference audio not found' });
    peer.invokes.push(json);
    const wav = await speechLikeWav(dataDir, json.text, WAV_RATE);
    res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': wav.length });
    res.end(wav);
  };

  const loop = await startLoopback(async (req, body, res) => {
    if (peer.delayMs > 0 && !(await stillWaitingAfter(res, peer.delayMs))) return;
    const url = new URL(req.url ?? '/', 'http://peer');
    if (req.method !== 'POST') return sendJson(res, 405, { detail: 'Method Not Allowed' });
    const json = parseJsonBody(req, body);
    if (!json) return sendJson(res, 422, { detail: 'expected a JSON body' });
    if (url.pathname === '/v1/preprocess_and_tran') return preprocess(json, res);
    if (url.pathname === '/v1/invoke') return invoke(json, res);
    sendJson(res, 404, { detail: 'Not Found' });
  });

  const peer: FishSpeechPeer = {
    url: loop.url, dataDir, failTraining: false, delayMs: 0, prepared, trainings: [], invokes: [],
    close: async () => {
      await loop.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
  return peer;
}
