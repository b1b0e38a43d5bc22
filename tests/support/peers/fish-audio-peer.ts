/**
 * A protocol peer for Fish Audio: a loopback HTTP server that speaks the real API (paths, Bearer auth, multipart
 * model creation, model states, the `model` header, JSON `{message, status}` errors) so the adapter is tested over
 * real HTTP.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import { startLoopback, sendJson, parseMultipart, parseJsonBody, stillWaitingAfter, peerWorkspace } from './loopback';

/** TTS models the `model` header may name. */
export const FISH_TTS_MODELS = ['s1', 's2-pro', 's2.1-pro', 's2.1-pro-free', 'speech-1.5', 'speech-1.6'];

export interface FishPeerModel {
  id: string;
  type: string;
  title: string;
  trainMode: string;
  visibility: string;
  voices: { filename: string; type: string; size: number }[];
  state: 'created' | 'training' | 'trained' | 'failed';
  /** Polls still to answer `training`. */
  pollsLeft: number;
  finalState: 'trained' | 'failed';
}

export interface FishTtsCall {
  /** The `model` header. */
  model: string | undefined;
  body: Record<string, unknown>;
}

export interface FishAudioPeer {
  url: string;
  apiKey: string;
  /** Knob: GET /model/{id} answers `training` this many times before the final state (read when a model is created). */
  trainingPolls: number;
  /** Knob: training of models created from now on ends `failed`. */
  failTraining: boolean;
  /** Knob: the next N authorized requests answer 429. */
  rateLimitNext: number;
  /** Knob: the next N authorized requests answer 500. */
  serverErrorNext: number;
  /** Knob: every answer waits this long first. */
  delayMs: number;
  models: Map<string, FishPeerModel>;
  tts: FishTtsCall[];
  requests: { method: string; path: string }[];
  /** The mp3 every TTS call answers with (one second of 220 Hz). */
  tone: Buffer;
  close(): Promise<void>;
}

const fishError = (res: http.ServerResponse, status: number, message: string) => sendJson(res, status, { message, status });

/** A loopback server speaking Fish Audio's REST API: POST /model, GET and DELETE /model/{id}, POST /v1/tts. */
export async function startFishAudioPeer(apiKey = 'fish-test-key'): Promise<FishAudioPeer> {
  const { dir, tone } = await peerWorkspace('aisa-fish-peer-');
  const models = new Map<string, FishPeerModel>();

  const entity = (m: FishPeerModel) => {
    const now = new Date().toISOString();
    return {
      _id: m.id, type: m.type, title: m.title, description: '', cover_image: '', train_mode: m.trainMode, state: m.state, tags: [], samples: [],
      created_at: now, updated_at: now, languages: [], visibility: m.visibility, lock_visibility: false,
      like_count: 0, mark_count: 0, shared_count: 0, task_count: 0, liked: false, marked: false,
      author: { _id: 'peer-author', nickname: 'peer', avatar: '' },
    };
  };

  const createModel = async (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => {
    const form = await parseMultipart(req, body);
    if (!form) return fishError(res, 400, 'Expected multipart/form-data');
    const field = (name: string) => (typeof form.get(name) === 'string' ? (form.get(name) as string) : undefined);
    const type = field('type');
    const title = field('title');
    const trainMode = field('train_mode');
    const visibility = field('visibility') ?? 'public';
    if (type !== 'tts') return fishError(res, 422, 'type: Input should be tts');
    if (!title?.trim()) return fishError(res, 422, 'title: Field required');
    if (trainMode !== 'fast' && trainMode !== 'full') return fishError(res, 422, 'train_mode: Input should be fast');
    if (!['public', 'unlist', 'private'].includes(visibility)) return fishError(res, 422, 'visibility: Input should be public, unlist or private');
    const voices = form.getAll('voices').filter((v): v is File => typeof v !== 'string');
    if (voices.length === 0 || voices.some((v) => v.size === 0)) return fishError(res, 422, 'voices: at least one non-empty audio file is required');
    const finalState = peer.failTraining ? 'failed' : 'trained';
    const model: FishPeerModel = {
      id: randomBytes(16).toString('hex'), type, title, trainMode, visibility,
      voices: voices.map((v) => ({ filename: v.name, type: v.type, size: v.size })),
      state: peer.trainingPolls > 0 ? 'created' : finalState, pollsLeft: peer.trainingPolls, finalState,
    };
    models.set(model.id, model);
    sendJson(res, 201, entity(model));
  };

  const getModel = (id: string, res: http.ServerResponse) => {
    const model = models.get(id);
    if (!model) return fishError(res, 404, 'Model not found');
    if (model.pollsLeft > 0) {
      model.pollsLeft -= 1;
      model.state = 'training';
    } else model.state = model.finalState;
    sendJson(res, 200, entity(model));
  };

  const tts = async (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => {
    const json = parseJsonBody(req, body);
    if (!json) return fishError(res, 400, 'This endpoint only accepts application/json and application/msgpack');
    const model = typeof req.headers.model === 'string' ? req.headers.model : undefined;
    if (model !== undefined && !FISH_TTS_MODELS.includes(model)) return fishError(res, 400, `Unknown model: ${model}`);
    if (typeof json.text !== 'string' || !json.text.trim()) return fishError(res, 422, 'text: Field required');
    if (json.format !== 'mp3') return fishError(res, 422, 'this peer answers format=mp3 only');
    if (json.reference_id !== undefined) {
      const ref = typeof json.reference_id === 'string' ? models.get(json.reference_id) : undefined;
      if (!ref || ref.state !== 'trained') return fishError(res, 400, 'Reference not found or not ready');
    }
    if (json.prosody !== undefined) {
      const p = json.prosody as { speed?: unknown; volume?: unknown } | null;
      if (!p || typeof p !== 'object') return fishError(res, 422, 'prosody: Input should be an object');
      if (p.speed !== undefined && (typeof p.speed !== 'number' || p.speed < 0.5 || p.speed > 2)) return fishError(res, 422, 'prosody.speed: 0.5 to 2.0');
      if (p.volume !== undefined && (typeof p.volume !== 'number' || !Number.isFinite(p.volume) || Math.abs(p.volume) > 20)) return fishError(res, 422, 'prosody.volume: dB, -20 to 20');
    }
    peer.tts.push({ model, body: json });
    // Streamed like the real service: chunked audio bytes, no JSON wrapper.
    res.writeHead(200, { 'content-type': 'audio/mpeg', 'transfer-encoding': 'chunked' });
    res.write(tone.subarray(0, tone.length >> 1));
    res.end(tone.subarray(tone.length >> 1));
  };

  const loop = await startLoopback(async (req, body, res) => {
    const url = new URL(req.url ?? '/', 'http://peer');
    peer.requests.push({ method: req.method ?? '', path: url.pathname });
    if (peer.delayMs > 0 && !(await stillWaitingAfter(res, peer.delayMs))) return;
    if (req.headers.authorization !== `Bearer ${apiKey}`) return fishError(res, 401, 'Invalid Token');
    if (peer.rateLimitNext > 0) {
      peer.rateLimitNext -= 1;
      return fishError(res, 429, 'Too Many Requests');
    }
    if (peer.serverErrorNext > 0) {
      peer.serverErrorNext -= 1;
      return fishError(res, 500, 'Internal Server Error');
    }
    const modelPath = /^\/model\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'POST' && url.pathname === '/model') return createModel(req, body, res);
    if (req.method === 'GET' && modelPath) return getModel(decodeURIComponent(modelPath[1]!), res);
    if (req.method === 'DELETE' && modelPath) {
      if (!models.delete(decodeURIComponent(modelPath[1]!))) return fishError(res, 404, 'Model not found');
      return sendJson(res, 200, {});
    }
    if (req.method === 'POST' && url.pathname === '/v1/tts') return tts(req, body, res);
    fishError(res, 404, 'Not Found');
  });

  const peer: FishAudioPeer = {
    url: loop.url, apiKey, trainingPolls: 0, failTraining: false, rateLimitNext: 0, serverErrorNext: 0, delayMs: 0,
    models, tts: [], requests: [], tone,
    close: async () => {
      await loop.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
  return peer;
}
