/**
 * A protocol peer for Kling (可灵) video generation: a loopback HTTP server that speaks the real API — a Bearer JWT
 * (HS256, iss = access key, exp and nbf checked against its clock; 1001 missing, 1002 wrongly signed or malformed,
 * 1003 not yet valid, 1004 expired, all HTTP 401), POST /v1/videos/text2video and /v1/videos/image2video, and
 * GET …/{task_id}. Tasks move submitted → processing → succeed (or failed) on its clock, and a succeeded task's
 * url serves a real mp4 of the requested duration. Request shapes are checked as the service does (code 1201), and
 * a field the service does not document for that kind is refused.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { ffmpeg } from '../../../server/infra/media-probe';
import { parseJsonBody, peerWorkspace, sendJson, startLoopback } from './loopback';

const RATIOS = ['16:9', '9:16', '1:1'];
/**
 * The request body fields Kling documents per task kind (its API reference, "Video Generation - Text to Video" and
 * "- Image to Video"). image2video has no aspect_ratio: the video takes the picture's own aspect. The peer refuses a
 * field outside these (code 1201), stricter than the service may be, so our adapter never leans on an undocumented
 * field.
 */
const COMMON_FIELDS = ['model_name', 'prompt', 'negative_prompt', 'cfg_scale', 'mode', 'camera_control', 'duration', 'callback_url', 'external_task_id'];
const FIELDS: Record<KlingPeerTask['kind'], string[]> = {
  text2video: [...COMMON_FIELDS, 'aspect_ratio'],
  image2video: [...COMMON_FIELDS, 'image', 'image_tail', 'static_mask', 'dynamic_masks'],
};
const SIZES: Record<string, string> = { '16:9': '320x180', '9:16': '180x320', '1:1': '240x240' };

export interface KlingPeerTask {
  id: string;
  kind: 'text2video' | 'image2video';
  body: Record<string, unknown>;
  created: number;
  /** The failure this task will end with (set by the failNext knob at creation). */
  failWith?: string;
}

export interface KlingPeer {
  url: string;
  accessKey: string;
  secretKey: string;
  tasks: KlingPeerTask[];
  /** Every authorized request's method and path. */
  requests: { method: string; path: string }[];
  /** Every request the peer refused for its token, with the code it answered. */
  authFailures: number[];
  /** Problems in request shapes a real service would refuse. */
  shapeErrors: string[];
  /** Knob: how long a task stays submitted, then processing (ms). */
  timeline: { submittedMs: number; processingMs: number };
  /** Knob: the next created task fails with this task_status_msg. */
  failNext?: string;
  /** Knob: the next create is refused with this business code (HTTP status as the service gives it). */
  refuseNext?: { code: number; http: number; message: string };
  close(): Promise<void>;
}

const b64json = (part: string): Record<string, unknown> | undefined => {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};

/** The token's verdict: 0 when valid, else Kling's auth code. */
export function checkKlingToken(authorization: string | undefined, accessKey: string, secretKey: string, nowSeconds: number): number {
  if (!authorization?.startsWith('Bearer ')) return 1001;
  const parts = authorization.slice(7).split('.');
  if (parts.length !== 3) return 1002;
  const [head, body, signature] = parts as [string, string, string];
  const header = b64json(head);
  const claims = b64json(body);
  if (!header || !claims || header.alg !== 'HS256') return 1002;
  const expected = Buffer.from(createHmac('sha256', secretKey).update(`${head}.${body}`).digest('base64url'));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 1002;
  if (claims.iss !== accessKey) return 1002;
  if (typeof claims.nbf === 'number' && claims.nbf > nowSeconds) return 1003;
  if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds) return 1004;
  return 0;
}

const AUTH_MESSAGES: Record<number, string> = { 1001: 'Authorization is empty', 1002: 'Authorization is invalid', 1003: 'Authorization is not yet valid', 1004: 'Authorization has expired' };

export async function startKlingPeer(): Promise<KlingPeer> {
  const { dir } = await peerWorkspace('kling-peer-');
  const videos = new Map<string, Promise<string>>();
  /** A real mp4 per duration and ratio, made once. */
  const video = (seconds: number, ratio: string) => {
    const key = `${seconds}-${ratio}`;
    if (!videos.has(key)) {
      const file = path.join(dir, `${key.replace(':', 'x')}.mp4`);
      videos.set(key, ffmpeg(['-f', 'lavfi', '-i', `testsrc2=s=${SIZES[ratio] ?? SIZES['16:9']}:r=15:d=${seconds}`, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', file]).then(() => file));
    }
    return videos.get(key)!;
  };
  let next = 1;

  const reply = (res: http.ServerResponse, status: number, code: number, message: string, data?: unknown) =>
    sendJson(res, status, { code, message, request_id: `req-${Date.now()}`, ...(data === undefined ? {} : { data }) });

  const taskView = (t: KlingPeerTask) => {
    const age = Date.now() - t.created;
    const status = age < peer.timeline.submittedMs ? 'submitted' : age < peer.timeline.submittedMs + peer.timeline.processingMs ? 'processing' : t.failWith ? 'failed' : 'succeed';
    return {
      task_id: t.id, task_status: status, created_at: t.created, updated_at: Date.now(),
      ...(status === 'failed' ? { task_status_msg: t.failWith } : {}),
      ...(status === 'succeed' ? { task_result: { videos: [{ id: `v-${t.id}`, url: `${peer.url}/results/${t.id}.mp4`, duration: String(t.body.duration) }] } } : {}),
    };
  };

  function shapeOf(kind: KlingPeerTask['kind'], body: Record<string, unknown>): string | undefined {
    const unknown = Object.keys(body).find((field) => !FIELDS[kind].includes(field));
    if (unknown) return `${unknown} is not a field of ${kind}`;
    if (typeof body.model_name !== 'string' || !body.model_name) return 'model_name is required';
    if (typeof body.prompt !== 'string' || (!body.prompt && kind === 'text2video') || body.prompt.length > 2500) return 'prompt must be 1-2500 characters';
    if (body.negative_prompt !== undefined && (typeof body.negative_prompt !== 'string' || body.negative_prompt.length > 2500)) return 'negative_prompt is invalid';
    if (body.cfg_scale !== undefined) {
      if (/^kling-v2/.test(body.model_name)) return `cfg_scale is not supported by ${body.model_name}`;
      if (typeof body.cfg_scale !== 'number' || body.cfg_scale < 0 || body.cfg_scale > 1) return 'cfg_scale must be a number in [0, 1]';
    }
    if (body.mode !== undefined && body.mode !== 'std' && body.mode !== 'pro') return 'mode must be std or pro';
    if (body.duration !== '5' && body.duration !== '10') return 'duration must be the string "5" or "10"';
    if (kind === 'text2video' && body.aspect_ratio !== undefined && !RATIOS.includes(String(body.aspect_ratio))) return 'aspect_ratio is invalid';
    if (kind === 'image2video') {
      for (const field of ['image', 'image_tail']) {
        const value = body[field];
        if (value === undefined && field === 'image_tail') continue;
        if (typeof value !== 'string' || !value) return `${field} is required`;
        if (value.startsWith('data:')) return `${field}: base64 must not carry a data: prefix`;
        if (!/^https?:\/\//.test(value) && !/^[A-Za-z0-9+/]+=*$/.test(value)) return `${field} is neither a URL nor base64`;
      }
    }
    return undefined;
  }

  const peer: KlingPeer = {
    url: '', accessKey: 'ak-test-kling', secretKey: 'sk-test-kling-secret', tasks: [], requests: [], authFailures: [], shapeErrors: [],
    timeline: { submittedMs: 300, processingMs: 300 },
    close: async () => {
      await server.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };

  const server = await startLoopback(async (req, body, res) => {
    const url = new URL(req.url ?? '/', 'http://peer');
    const result = /^\/results\/([\w-]+)\.mp4$/.exec(url.pathname);
    if (req.method === 'GET' && result) {
      const task = peer.tasks.find((t) => t.id === result[1]);
      if (!task) return sendJson(res, 404, { code: 404, message: 'not found' });
      const bytes = await fs.readFile(await video(Number(task.body.duration), String(task.body.aspect_ratio ?? '16:9')));
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': bytes.length });
      return void res.end(bytes);
    }
    const auth = checkKlingToken(req.headers.authorization, peer.accessKey, peer.secretKey, Math.floor(Date.now() / 1000));
    if (auth) {
      peer.authFailures.push(auth);
      return reply(res, 401, auth, AUTH_MESSAGES[auth]!);
    }
    peer.requests.push({ method: req.method ?? '', path: url.pathname });
    const route = /^\/v1\/videos\/(text2video|image2video)(?:\/([\w-]+))?$/.exec(url.pathname);
    if (!route) return reply(res, 404, 1200, 'unknown path');
    const kind = route[1] as KlingPeerTask['kind'];
    if (req.method === 'POST' && !route[2]) {
      const json = parseJsonBody(req, body);
      if (!json) return reply(res, 400, 1200, 'body must be JSON');
      const problem = shapeOf(kind, json);
      if (problem) {
        peer.shapeErrors.push(problem);
        return reply(res, 400, 1201, problem);
      }
      if (peer.refuseNext) {
        const refusal = peer.refuseNext;
        peer.refuseNext = undefined;
        return reply(res, refusal.http, refusal.code, refusal.message);
      }
      const task: KlingPeerTask = { id: `task-${next++}`, kind, body: json, created: Date.now(), failWith: peer.failNext };
      peer.failNext = undefined;
      peer.tasks.push(task);
      return reply(res, 200, 0, 'SUCCEED', taskView(task));
    }
    if (req.method === 'GET' && route[2]) {
      const task = peer.tasks.find((t) => t.id === route[2] && t.kind === kind);
      if (!task) return reply(res, 404, 1203, 'task not found');
      return reply(res, 200, 0, 'SUCCEED', taskView(task));
    }
    return reply(res, 405, 1200, 'method not allowed');
  });
  peer.url = server.url;
  return peer;
}
