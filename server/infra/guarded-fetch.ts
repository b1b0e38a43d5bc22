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
  /** Name resolution (default: the system's, every address). */
  resolve?: (host: string) => Promise<ResolvedAddress[]>;
}

const systemResolve = async (host: string): Promise<ResolvedAddress[]> => dns.promises.lookup(host, { all: true, verbatim: true });

/** Checks one hop: its scheme, then every address its host resolves to. Answers the address to connect to. */
async function checkedAddress(url: URL, guard: FetchGuard): Promise<ResolvedAddress> {
  const allowPort = (port: number) => !!guard.allowLoopbackPorts?.includes(port);
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

/** One GET to a checked address; answers the response (a redirect is not followed here). */
function request(url: URL, to: ResolvedAddress, signal: AbortSignal): Promise<http.IncomingMessage> {
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, [to]);
    else callback(null, to.address, to.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.get(url, { lookup, signal, headers: { 'user-agent': 'Mozilla/5.0 (compatible; AISuperAvatar/1.0)', accept: '*/*' } }, resolve);
    req.on('error', reject);
  });
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
