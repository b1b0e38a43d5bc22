/** What the loopback protocol peers share: an HTTP server on 127.0.0.1, body parsing, JSON answers, a real mp3. */
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { ffmpeg } from '../../../server/infra/media-probe';

export type PeerHandler = (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => Promise<void>;

const MAX_BODY = 25 * 1024 * 1024;

export async function startLoopback(handler: PeerHandler): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_BODY) return sendJson(res, 413, { message: 'Payload Too Large', status: 413 });
      handler(req, Buffer.concat(chunks), res).catch((err: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { message: `peer error: ${String(err)}`, status: 500 });
        else res.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  sendRawJson(res, status, JSON.stringify(body));
}

export function sendRawJson(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Parses a multipart/form-data body the way a server would (undici's parser), or undefined when it is not one. */
export async function parseMultipart(req: http.IncomingMessage, body: Buffer): Promise<FormData | undefined> {
  const type = req.headers['content-type'] ?? '';
  if (!type.startsWith('multipart/form-data')) return undefined;
  try {
    return await new Response(new Uint8Array(body), { headers: { 'content-type': type } }).formData();
  } catch {
    return undefined;
  }
}

export function parseJsonBody(req: http.IncomingMessage, body: Buffer): Record<string, unknown> | undefined {
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return undefined;
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A scratch directory for the peer, with a real one-second 220 Hz mp3 in it. */
export async function peerWorkspace(prefix: string): Promise<{ dir: string; tone: Buffer }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  const file = path.join(dir, 'tone.mp3');
  await ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=220:duration=1:sample_rate=44100', '-c:a', 'libmp3lame', '-b:a', '128k', '-ac', '1', '-f', 'mp3', file]);
  return { dir, tone: await fs.readFile(file) };
}
