/**
 * A loopback peer speaking the two image-generation shapes of server/engines/image/openai-images.ts:
 * - OpenAI's images API (also Zhipu CogView's): POST {base}/images/generations with JSON {model, prompt, n, size}
 *   → {created, data: [{url} | {b64_json}]}; POST {base}/images/edits as multipart (model, prompt, n, size, image).
 * - SiliconFlow's: POST {base}/images/generations with JSON {model, prompt, image_size, batch_size, image?}
 *   → {images: [{url}], timings, seed}.
 * It checks the bearer key and each request's shape, records the requests, and answers real PNG pictures (drawn by
 * - Kling's asynchronous image task: POST /v1/images/generations with JSON {model_name, prompt, n, aspect_ratio, image?}
 *   → {code: 0, data: {task_id}}; GET /v1/images/generations/{task_id} → processing once, then succeed with
 *   task_result.images[].url (or failed with task_status_msg). The bearer token must be an HS256 JWT of the access
 *   key signed with the secret key, not expired.
 * ffmpeg, a different hue each), by link (served from the peer under /files/, as providers' expiring links are)
 * or inline. The test picks a behaviour: pictures, an HTTP error, a failure after N pictures, links that do not
 * give a picture, or (Kling) a task that fails.
 */
import { createHmac } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type http from 'node:http';
import { ffmpeg } from '../../../server/infra/media-probe';
import { parseJsonBody, parseMultipart, peerWorkspace, sendJson, startLoopback } from './loopback';

export type ImagePeerDialect = 'openai' | 'siliconflow' | 'kling';

export interface ImagePeerRequest {
  path: string;
  /** JSON body fields, or multipart text fields. */
  body: Record<string, unknown>;
  /** The reference picture's bytes, when one came (multipart `image`, or a data URI in `image`). */
  reference?: Buffer;
}

export type ImagePeerBehaviour =
  /** Pictures: by link (default) or inline as b64_json (openai only); `delayMs` before answering. */
  | { kind: 'images'; as?: 'url' | 'b64'; delayMs?: number }
  /** This HTTP status with the dialect's error body. */
  | { kind: 'status'; status: number; message?: string }
  /** `made` requests (openai) answer pictures, then this status. */
  | { kind: 'failAfter'; made: number; status: number }
  /** Links that answer 404 (the provider's links expired). */
  | { kind: 'deadLinks' }
  /** Kling: the task ends failed with this message. */
  | { kind: 'taskFails'; message: string };

export interface ImagePeer {
  /** Base URL to configure (…/v1); Kling's is `origin`. */
  url: string;
  origin: string;
  apiKey: string;
  /** Kling's secret key (the access key is apiKey). */
  secretKey: string;
  requests: ImagePeerRequest[];
  shapeErrors: string[];
  /** Every picture served so far, by its file name under /files/. */
  served: Map<string, Buffer>;
  behave(dialect: ImagePeerDialect, b: ImagePeerBehaviour): void;
  close(): Promise<void>;
}

const SIZE = /^\d{3,4}x\d{3,4}$/;

function shapeError(dialect: ImagePeerDialect, body: Record<string, unknown>): string | null {
  if (dialect === 'kling') {
    if (typeof body.model_name !== 'string' || !body.model_name) return 'model_name must be a non-empty string';
    if (typeof body.prompt !== 'string' || !body.prompt.trim()) return 'prompt must be a non-empty string';
    if (!Number.isInteger(body.n) || (body.n as number) < 1 || (body.n as number) > 9) return 'n must be 1–9';
    if (!['16:9', '9:16', '1:1', '4:3', '3:4', '3:2', '2:3', '21:9'].includes(String(body.aspect_ratio))) return `aspect_ratio unknown: ${String(body.aspect_ratio)}`;
    if ('image' in body && (typeof body.image !== 'string' || body.image.startsWith('data:'))) return 'image must be bare base64';
    return null;
  }
  if (typeof body.model !== 'string' || !body.model) return 'model must be a non-empty string';
  if (typeof body.prompt !== 'string' || !body.prompt.trim()) return 'prompt must be a non-empty string';
  if (dialect === 'openai') {
    if (Number(body.n) !== 1) return `n must be 1, got ${String(body.n)}`;
    if (typeof body.size !== 'string' || !SIZE.test(body.size)) return `size must be WxH, got ${String(body.size)}`;
  } else {
    if (typeof body.image_size !== 'string' || !SIZE.test(body.image_size)) return `image_size must be WxH, got ${String(body.image_size)}`;
    if (!Number.isInteger(body.batch_size) || (body.batch_size as number) < 1 || (body.batch_size as number) > 4) return 'batch_size must be 1–4';
    if ('n' in body || 'size' in body) return 'SiliconFlow takes image_size and batch_size, not size and n';
  }
  return null;
}

/** Whether `token` is an unexpired HS256 JWT whose iss is the access key, signed with the secret key. */
function validKlingToken(token: string, accessKey: string, secretKey: string): boolean {
  const [head, payload, signature] = token.split('.');
  if (!head || !payload || !signature) return false;
  if (createHmac('sha256', secretKey).update(`${head}.${payload}`).digest('base64url') !== signature) return false;
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { iss?: string; exp?: number; nbf?: number };
  const now = Date.now() / 1000;
  return claims.iss === accessKey && (claims.exp ?? 0) > now && (claims.nbf ?? 0) <= now;
}

export async function startImagePeer(apiKey = 'sk-image-peer-0123456789', secretKey = 'kling-secret-abcdef0123'): Promise<ImagePeer> {
  const { dir } = await peerWorkspace('image-peer-');
  let dialect: ImagePeerDialect = 'openai';
  let behaviour: ImagePeerBehaviour = { kind: 'images' };
  let answered = 0;
  const requests: ImagePeerRequest[] = [];
  const shapeErrors: string[] = [];
  const served = new Map<string, Buffer>();
  const tasks = new Map<string, { polls: number; count: number }>();
  let made = 0;

  /** A real 320×240 PNG: a Mandelbrot view whose hue turns with every picture, so each one differs. */
  async function picture(): Promise<{ name: string; bytes: Buffer }> {
    made++;
    const name = `img-${made}.png`;
    const file = path.join(dir, name);
    await ffmpeg(['-f', 'lavfi', '-i', 'mandelbrot=size=320x240:rate=1', '-vf', `hue=h=${(made * 67) % 360}`, '-frames:v', '1', file]);
    const bytes = await fs.readFile(file);
    served.set(name, bytes);
    return { name, bytes };
  }

  const error = (res: http.ServerResponse, status: number, message: string) =>
    sendJson(res, status, dialect === 'openai' ? { error: { message, type: 'invalid_request_error', code: null } } : { code: dialect === 'kling' ? 1201 : 20015, message, data: null });
  const link = (p: { name: string }) => `${base}/files/${p.name}?Expires=3600&Signature=peer`;

  /** Kling: submit makes a task; each poll moves it on (processing once, then its end). */
  async function kling(req: http.IncomingMessage, raw: Buffer, res: http.ServerResponse, url: URL) {
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!validKlingToken(token, apiKey, secretKey)) return error(res, 401, 'Auth failed');
    const taskPath = /^\/v1\/images\/generations\/([\w-]+)$/.exec(url.pathname);
    if (req.method === 'GET' && taskPath) {
      const task = tasks.get(taskPath[1]!);
      if (!task) return error(res, 404, 'task not found');
      task.polls++;
      const data: Record<string, unknown> = { task_id: taskPath[1], task_status: 'processing', created_at: Date.now(), updated_at: Date.now() };
      if (task.polls > 1 && behaviour.kind === 'taskFails') Object.assign(data, { task_status: 'failed', task_status_msg: behaviour.message });
      else if (task.polls > 1) {
        const pictures = await Promise.all(Array.from({ length: task.count }, picture));
        Object.assign(data, { task_status: 'succeed', task_result: { images: pictures.map((p, index) => ({ index, url: link(p) })) } });
      }
      return sendJson(res, 200, { code: 0, message: 'SUCCEED', request_id: 'peer', data });
    }
    if (req.method !== 'POST' || url.pathname !== '/v1/images/generations') return error(res, 404, `no route ${req.method} ${url.pathname}`);
    const body = parseJsonBody(req, raw);
    if (!body) return error(res, 400, 'body must be JSON');
    const reference = typeof body.image === 'string' ? Buffer.from(body.image, 'base64') : undefined;
    requests.push({ path: 'images/generations', body, reference });
    const wrong = shapeError('kling', body);
    if (wrong) {
      shapeErrors.push(wrong);
      return error(res, 400, wrong);
    }
    if (behaviour.kind === 'status') return error(res, behaviour.status, behaviour.message ?? `peer status ${behaviour.status}`);
    const id = `task-${tasks.size + 1}`;
    tasks.set(id, { polls: 0, count: body.n as number });
    sendJson(res, 200, { code: 0, message: 'SUCCEED', request_id: 'peer', data: { task_id: id, task_status: 'submitted', created_at: Date.now(), updated_at: Date.now() } });
  }

  let base = '';
  const server = await startLoopback(async (req, raw, res) => {
    const url = new URL(req.url ?? '/', 'http://peer');
    if (req.method === 'GET' && url.pathname.startsWith('/files/')) {
      const bytes = served.get(url.pathname.slice('/files/'.length));
      if (!bytes || behaviour.kind === 'deadLinks') return sendJson(res, 404, { message: 'expired' });
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': bytes.length });
      return void res.end(bytes);
    }
    if (dialect === 'kling') return kling(req, raw, res, url);
    const endpoint = url.pathname.replace(/^\/v1\//, '');
    if (req.method !== 'POST' || !['images/generations', 'images/edits'].includes(endpoint)) return error(res, 404, `no route ${req.method} ${url.pathname}`);
    if (req.headers.authorization !== `Bearer ${apiKey}`) return error(res, 401, `Incorrect API key provided: ${req.headers.authorization ?? ''}`);

    let body: Record<string, unknown> | undefined;
    let reference: Buffer | undefined;
    if (endpoint === 'images/edits') {
      const form = await parseMultipart(req, raw);
      if (!form || dialect !== 'openai') return error(res, 400, 'edits takes multipart/form-data (OpenAI only)');
      body = {};
      for (const [k, v] of form.entries()) if (typeof v === 'string') body[k] = v;
      const image = form.get('image');
      if (!(image instanceof Blob)) return error(res, 400, 'image file required');
      reference = Buffer.from(await image.arrayBuffer());
    } else {
      body = parseJsonBody(req, raw);
      if (!body) return error(res, 400, 'body must be JSON');
      if (typeof body.image === 'string') {
        const m = /^data:image\/(png|jpeg);base64,(.+)$/.exec(body.image);
        if (dialect !== 'siliconflow' || !m) return error(res, 400, 'image must be a data URI (SiliconFlow only)');
        reference = Buffer.from(m[2]!, 'base64');
      }
    }
    requests.push({ path: endpoint, body, reference });
    const wrong = shapeError(dialect, body);
    if (wrong) {
      shapeErrors.push(wrong);
      return error(res, 400, wrong);
    }

    const b = behaviour;
    if (b.kind === 'status') return error(res, b.status, b.message ?? `peer status ${b.status}`);
    if (b.kind === 'failAfter' && answered >= b.made) return error(res, b.status, 'upstream overloaded');
    answered++;
    if (b.kind === 'images' && b.delayMs) await new Promise((r) => setTimeout(r, b.delayMs));
    const count = dialect === 'openai' ? 1 : (body.batch_size as number);
    const pictures = await Promise.all(Array.from({ length: count }, picture));
    if (dialect === 'siliconflow') return sendJson(res, 200, { images: pictures.map((p) => ({ url: link(p) })), timings: { inference: 1.2 }, seed: 42 });
    const inline = b.kind === 'images' && b.as === 'b64';
    sendJson(res, 200, { created: Math.floor(Date.now() / 1000), data: pictures.map((p) => (inline ? { b64_json: p.bytes.toString('base64') } : { url: link(p) })) });
  });
  base = server.url;

  return {
    url: `${server.url}/v1`,
    origin: server.url,
    apiKey,
    secretKey,
    requests,
    shapeErrors,
    served,
    behave(d, b) {
      dialect = d;
      behaviour = b;
      answered = 0;
    },
    async close() {
      await server.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
