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

/**
 * Answers late, as a slow server does: waits `ms`, then says whether the client still waits. A request its
 * client gave up on (a timeout test) must then be dropped, or it would take the knobs a later test set.
 */
export async function stillWaitingAfter(res: http.ServerResponse, ms: number): Promise<boolean> {
  let gone = false;
  const leave = () => (gone = true);
  res.once('close', leave);
  await sleep(ms);
  res.off('close', leave);
  return !gone && !res.writableEnded;
}

/** A scratch directory for the peer, with a real one-second 220 Hz mp3 in it. */
export async function peerWorkspace(prefix: string): Promise<{ dir: string; tone: Buffer }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  const file = path.join(dir, 'tone.mp3');
  await ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=220:duration=1:sample_rate=44100', '-c:a', 'libmp3lame', '-b:a', '128k', '-ac', '1', '-f', 'mp3', file]);
  return { dir, tone: await fs.readFile(file) };
}

/** The seconds of audio in a PCM WAV (from its format and data chunks), or undefined when it is not one. */
export function wavSeconds(wav: Buffer): number | undefined {
  if (wav.length < 44 || wav.toString('latin1', 0, 4) !== 'RIFF' || wav.toString('latin1', 8, 12) !== 'WAVE') return undefined;
  let byteRate = 0;
  for (let at = 12; at + 8 <= wav.length; ) {
    const id = wav.toString('latin1', at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    if (id === 'fmt ') byteRate = wav.readUInt32LE(at + 16);
    if (id === 'data') return byteRate > 0 ? Math.min(size, wav.length - at - 8) / byteRate : undefined;
    at += 8 + size + (size % 2);
  }
  return undefined;
}

/**
 * What a TTS server would speak for `text`: a real 16-bit mono WAV of a 220 Hz tone, `secondsPerChar` per
 * character (at least 0.4 s), so tests can measure lengths and the silences between spoken parts.
 */
export async function speechLikeWav(dir: string, text: string, rate: number, secondsPerChar = 0.12): Promise<Buffer> {
  const seconds = Math.max(0.4, [...text].length * secondsPerChar);
  const file = path.join(dir, `tts-${Math.random().toString(36).slice(2)}.wav`);
  await ffmpeg(['-f', 'lavfi', '-i', `sine=frequency=220:duration=${seconds.toFixed(3)}:sample_rate=${rate}`, '-ac', '1', '-c:a', 'pcm_s16le', '-f', 'wav', file]);
  try {
    return await fs.readFile(file);
  } finally {
    await fs.rm(file, { force: true });
  }
}
