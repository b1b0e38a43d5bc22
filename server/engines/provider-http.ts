/**
 * HTTP to a provider's service, shared by every engine kind (speech providers, the lip-sync server): one deadline
 * per exchange, no redirects, and network failures as one error type that each engine words for its users.
 * Nothing here logs, so keys and signed URLs never reach a log.
 */
import fs from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

export interface ProviderResponse {
  status: number;
  contentType: string;
  body: Buffer;
}

/** The service could not be reached or did not answer in time; worth trying again later. */
export class ProviderUnreachable extends Error {
  constructor(readonly timedOut: boolean) {
    super(timedOut ? 'provider timed out' : 'provider unreachable');
  }
}

const isAbort = (err: unknown) => ['TimeoutError', 'AbortError'].includes((err as { name?: string }).name ?? '');

/** One exchange, body included, under one deadline; the caller judges the status. */
export async function fetchWithDeadline(url: string, init: RequestInit, timeoutMs: number): Promise<ProviderResponse> {
  try {
    const res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    const body = Buffer.from(await res.arrayBuffer());
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', body };
  } catch (err) {
    throw new ProviderUnreachable(isAbort(err));
  }
}

/** The body was larger than the caller allows. */
export class ProviderDownloadTooLarge extends Error {}

/**
 * GETs a (possibly large) file straight to disk under one deadline for the whole transfer, never holding it in
 * memory. Only a 2xx body is written; `output` is removed if the transfer breaks off.
 */
export async function downloadWithDeadline(url: string, output: string, timeoutMs: number, maxBytes: number): Promise<{ status: number; contentType: string; bytes: number }> {
  const signal = AbortSignal.timeout(timeoutMs);
  let res: Response;
  try {
    res = await fetch(url, { redirect: 'error', signal });
  } catch (err) {
    throw new ProviderUnreachable(isAbort(err));
  }
  const contentType = res.headers.get('content-type') ?? '';
  if (res.status < 200 || res.status >= 300 || !res.body) {
    await res.body?.cancel().catch(() => {});
    return { status: res.status, contentType, bytes: 0 };
  }
  let bytes = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      done(bytes > maxBytes ? new ProviderDownloadTooLarge() : null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), limit, fs.createWriteStream(output));
  } catch (err) {
    await fs.promises.rm(output, { force: true });
    if (err instanceof ProviderDownloadTooLarge) throw err;
    throw new ProviderUnreachable(isAbort(err) || signal.aborted);
  }
  return { status: res.status, contentType, bytes };
}

export function trimBaseUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

export function parseJsonBody(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Providers echo the key or its last characters (`****abcd`) in 401 messages; none of it may reach a log line. */
export function redactKey(text: string, key: string): string {
  let out = key ? text.split(key).join('***') : text;
  if (key.length >= 8) out = out.split(key.slice(-4)).join('***');
  return out.replace(/\b(sk-[A-Za-z0-9_-]{4})[A-Za-z0-9_-]+/g, '$1***');
}

/** A provider's error sentence: `{"error": {"message": …}}` (OpenAI, DeepSeek, Zhipu), `{"error": …}`, `{"message": …}` (SiliconFlow), or the raw text. */
export function providerErrorMessage(text: string): string {
  const json = parseJsonBody(Buffer.from(text)) as { error?: { message?: unknown } | string; message?: unknown } | undefined;
  if (typeof json?.error === 'string') return json.error;
  if (json?.error && typeof json.error.message === 'string') return json.error.message;
  if (typeof json?.message === 'string') return json.message;
  return text;
}
