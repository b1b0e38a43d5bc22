/**
 * A loopback peer speaking the two image-generation shapes of server/engines/image/openai-images.ts:
 * - OpenAI's images API (also Zhipu CogView's): POST {base}/images/generations with JSON {model, prompt, n, size}
 *   → {created, data: [{url} | {b64_json}]}; POST {base}/images/edits as multipart (model, prompt, n, size, image).
 * - SiliconFlow's: POST {base}/images/generations with JSON {model, prompt, image_size, batch_size, image?}
 *   → {images: [{url}], timings, seed}.
 * It checks the bearer key and each request's shape, records the requests, and answers real PNG pictures (drawn by
 * ffmpeg, a different colour each), by link (served from the peer under /files/, as providers' expiring links are)
 * or inline. The test picks a behaviour: pictures, an HTTP error, a failure after N pictures, or links that do not
 * give a picture.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type http from 'node:http';
import { ffmpeg } from '../../../server/infra/media-probe';
import { parseJsonBody, parseMultipart, peerWorkspace, sendJson, startLoopback } from './loopback';

export type ImagePeerDialect = 'openai' | 'siliconflow';

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
  | { kind: 'deadLinks' };

export interface ImagePeer {
  /** Base URL to configure (…/v1). */
  url: string;
  apiKey: string;
  requests: ImagePeerRequest[];
  shapeErrors: string[];
  /** Every picture served so far, by its file name under /files/. */
  served: Map<string, Buffer>;
  behave(dialect: ImagePeerDialect, b: ImagePeerBehaviour): void;
  close(): Promise<void>;
}

const SIZE = /^\d{3,4}x\d{3,4}$/;

function shapeError(dialect: ImagePeerDialect, body: Record<string, unknown>): string | null {
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

export async function startImagePeer(apiKey = 'sk-image-peer-0123456789'): Promise<ImagePeer> {
  const { dir } = await peerWorkspace('image-peer-');
  let dialect: ImagePeerDialect = 'openai';
  let behaviour: ImagePeerBehaviour = { kind: 'images' };
  let answered = 0;
  const requests: ImagePeerRequest[] = [];
  const shapeErrors: string[] = [];
  const served = new Map<string, Buffer>();
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
    sendJson(res, status, dialect === 'openai' ? { error: { message, type: 'invalid_request_error', code: null } } : { code: 20015, message, data: null });

  let base = '';
  const server = await startLoopback(async (req, raw, res) => {
    const url = new URL(req.url ?? '/', 'http://peer');
    if (req.method === 'GET' && url.pathname.startsWith('/files/')) {
      const bytes = served.get(url.pathname.slice('/files/'.length));
      if (!bytes || behaviour.kind === 'deadLinks') return sendJson(res, 404, { message: 'expired' });
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': bytes.length });
      return void res.end(bytes);
    }
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
    const link = (p: { name: string }) => `${base}/files/${p.name}?Expires=3600&Signature=peer`;
    if (dialect === 'siliconflow') return sendJson(res, 200, { images: pictures.map((p) => ({ url: link(p) })), timings: { inference: 1.2 }, seed: 42 });
    const inline = b.kind === 'images' && b.as === 'b64';
    sendJson(res, 200, { created: Math.floor(Date.now() / 1000), data: pictures.map((p) => (inline ? { b64_json: p.bytes.toString('base64') } : { url: link(p) })) });
  });
  base = server.url;

  return {
    url: `${server.url}/v1`,
    apiKey,
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
