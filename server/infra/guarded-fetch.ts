/**
 * The one way the server downloads a URL a user gave (or a parse engine handed back for one): http(s) only; every
 * address the host resolves to must be public (not loopback, private, link-local, …), checked before connecting and
 * again for every redirect (at most LIMITS.extractionFetch.maxRedirects); the connection goes to the address that
 * was checked (no second DNS answer can swap it); a byte cap and a time limit. Tests reach their loopback peers
 * only through `allowLoopbackPorts`, which production never sets (ServerConfig.fetchLoopbackPorts).
 */
import dns from 'node:dns';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { addressAllowed, linkRefusal, LIMITS, parseIPv4, parseIPv6, urlPort } from '../../src/contract';

export type FetchFailure = 'address' | 'scheme' | 'invalid' | 'redirects' | 'size' | 'timeout' | 'status' | 'network';

export class FetchRefused extends Error {
  constructor(
    readonly failure: FetchFailure,
    detail: string,
  ) {
    super(detail);
  }
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

export interface FetchGuard {
  maxBytes: number;
  timeoutMs?: number;
  maxRedirects?: number;
  /** Loopback ports a test's peers listen on (never set in production). */
  allowLoopbackPorts?: readonly number[];
  /** Every loopback port: a webhook receiver on this machine, when the operator allows it (WEBHOOK_ALLOW_LOOPBACK). */
  allowLoopback?: boolean;
  /** Name resolution (default: the system's, every address). */
  resolve?: (host: string) => Promise<ResolvedAddress[]>;
}

const systemResolve = async (host: string): Promise<ResolvedAddress[]> => dns.promises.lookup(host, { all: true, verbatim: true });

/** Checks one hop: its scheme, then every address its host resolves to. Answers the address to connect to. */
async function checkedAddress(url: URL, guard: FetchGuard): Promise<ResolvedAddress> {
  const allowPort = (port: number) => !!guard.allowLoopback || !!guard.allowLoopbackPorts?.includes(port);
  const refusal = linkRefusal(url, allowPort);
  if (refusal) throw new FetchRefused(refusal, `refused ${url.protocol} link to ${url.hostname}`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = parseIPv4(host) ? 4 : parseIPv6(host) ? 6 : 0;
  let addresses: ResolvedAddress[];
  if (literal) addresses = [{ address: host, family: literal }];
  else {
    try {
      addresses = await (guard.resolve ?? systemResolve)(host);
    } catch (err) {
      throw new FetchRefused('network', `cannot resolve ${host}: ${(err as Error).message}`);
    }
  }
  if (!addresses.length) throw new FetchRefused('network', `no address for ${host}`);
  // Every answer must be allowed: a name with one public and one internal address is refused.
  const bad = addresses.find((a) => !addressAllowed(a.address, urlPort(url), allowPort));
  if (bad) throw new FetchRefused('address', `${host} resolves to ${bad.address}`);
  return addresses[0]!;
}

const USER_AGENT = 'Mozilla/5.0 (compatible; AISuperAvatar/1.0)';

/** One request to a checked address (a GET unless a body is posted); answers the response (a redirect is not followed here). */
function request(url: URL, to: ResolvedAddress, signal: AbortSignal, post?: { body: string; headers: Record<string, string> }): Promise<http.IncomingMessage> {
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, [to]);
    else callback(null, to.address, to.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const headers = { 'user-agent': USER_AGENT, accept: '*/*', ...post?.headers };
    const req = client.request(url, { method: post ? 'POST' : 'GET', lookup, signal, headers }, resolve);
    req.on('error', reject);
    req.end(post?.body);
  });
}

/**
 * Posts `body` to a user's callback URL under the same guard (no redirect is followed): answers the HTTP status.
 * Throws FetchRefused for a refused address, a timeout or a network failure.
 */
export async function guardedPost(link: string, body: string, headers: Record<string, string>, guard: Omit<FetchGuard, 'maxBytes' | 'maxRedirects'>): Promise<number> {
  const timeoutMs = guard.timeoutMs ?? LIMITS.extractionFetch.timeoutMs;
  const signal = AbortSignal.timeout(timeoutMs);
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new FetchRefused('invalid', 'not a URL');
  }
  const to = await checkedAddress(url, { ...guard, maxBytes: 0 });
  try {
    const res = await request(url, to, signal, { body, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers } });
    res.resume();
    return res.statusCode ?? 0;
  } catch (err) {
    if (signal.aborted) throw new FetchRefused('timeout', `no answer within ${timeoutMs} ms`);
    throw new FetchRefused('network', (err as Error).message);
  }
}

/**
 * Downloads `link` into `file` under the guard. Answers the bytes written and the final URL. Throws FetchRefused
 * (its `failure` says why) for anything refused or failed; nothing is fetched from a refused address.
 */
export async function guardedDownload(link: string, file: string, guard: FetchGuard): Promise<{ size: number; url: string }> {
  const maxRedirects = guard.maxRedirects ?? LIMITS.extractionFetch.maxRedirects;
  const signal = AbortSignal.timeout(guard.timeoutMs ?? LIMITS.extractionFetch.timeoutMs);
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new FetchRefused('invalid', 'not a URL');
  }
  try {
    for (let hop = 0; ; hop++) {
      const to = await checkedAddress(url, guard);
      const res = await request(url, to, signal);
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        if (hop >= maxRedirects) throw new FetchRefused('redirects', `more than ${maxRedirects} redirects`);
        url = new URL(res.headers.location, url);
        continue;
      }
      if (status < 200 || status >= 300) {
        res.resume();
        throw new FetchRefused('status', `HTTP ${status} from ${url.host}`);
      }
      const declared = Number(res.headers['content-length']);
      if (declared > guard.maxBytes) {
        res.destroy();
        throw new FetchRefused('size', `${declared} bytes declared`);
      }
      let size = 0;
      const cap = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          if (size > guard.maxBytes) done(new FetchRefused('size', `more than ${guard.maxBytes} bytes`));
          else done(null, chunk);
        },
      });
      await pipeline(res, cap, fs.createWriteStream(file), { signal });
      return { size, url: url.href };
    }
  } catch (err) {
    fs.rmSync(file, { force: true });
    if (err instanceof FetchRefused) throw err;
    if (signal.aborted) throw new FetchRefused('timeout', `no complete answer within ${guard.timeoutMs ?? LIMITS.extractionFetch.timeoutMs} ms`);
    throw new FetchRefused('network', (err as Error).message);
  }
}
