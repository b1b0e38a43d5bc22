/** What the key calls, the REST surface and the webhook job share: keys and their hashes, callback URL checks, signatures. */
import { randomBytes } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { hmac } from '@noble/hashes/hmac.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API, API_KEY_PREFIX, MSG, linkRefusal, type CallResponse, type DubbingRecord, type Work } from '../../../src/contract';
import type { ServerConfig } from '../../infra/config';
import { ApiError, type FeatureRouter, type SessionUser } from '../../infra/http';

/** How often a work submitted under a key with a callback URL is looked at, until it ends (ServerConfig.openApi). */
export const WATCH_SECONDS = 10;

/** Characters of a key the list shows (the prefix and a few more). */
const SHOWN_CHARS = API_KEY_PREFIX.length + 6;

export const keyHash = (key: string): string => bytesToHex(sha256(utf8ToBytes(key)));

/** A new key: what the user copies once, and what is kept of it. */
export function newKey(): { key: string; hash: string; prefix: string; webhookSecret: string } {
  const key = `${API_KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
  return { key, hash: keyHash(key), prefix: `${key.slice(0, SHOWN_CHARS)}…`, webhookSecret: `whsec_${randomBytes(24).toString('base64url')}` };
}

/** HMAC-SHA256 of `timestamp.body` with the key's webhook secret, hex. */
export const webhookSignature = (secret: string, timestamp: number, body: string): string =>
  bytesToHex(hmac(sha256, utf8ToBytes(secret), utf8ToBytes(`${timestamp}.${body}`)));

/**
 * A callback URL must be https at a public address; a loopback receiver (any scheme) only when the operator says
 * so (WEBHOOK_ALLOW_LOOPBACK). Answers true when the URL is refused. The addresses its host resolves to are checked
 * again at every delivery (guardedPost).
 */
export function webhookUrlRefused(url: string, config: ServerConfig): boolean {
  const loopback = !!config.openApi?.webhookLoopback;
  if (linkRefusal(url, () => loopback)) return true;
  const parsed = new URL(url);
  return parsed.protocol !== 'https:' && !(loopback && ['127.0.0.1', '[::1]', 'localhost'].includes(parsed.hostname));
}


/** A work as the REST surface and the webhooks show it. */
export const openWork = (w: Work) => ({
  id: w.id, name: w.name, status: w.status, url: w.url, srt: w.srt ?? '', duration: w.duration ?? 0, credits: w.credits ?? 0, reason: w.reason ?? '', create_time: w.create_time,
});

type Http = { request: FastifyRequest; reply: FastifyReply };

/** The records the REST surface reads through the browser's list calls, asked for one id. */
export type RecordList = typeof API.works.list | typeof API.dubbing.list;

/** The user's record of this id, as its list call answers it, or a 404 (another user's record is no record). */
async function ownRecord<C extends RecordList>(router: FeatureRouter, call: C, user: SessionUser, id: number, http?: Http): Promise<CallResponse<C>['list'][number]> {
  const found = (await router.invoke(call, { id, page: 1, limit: 1 }, user, http)).list[0];
  if (!found) throw new ApiError(MSG.notFound);
  return found;
}

/** The user's work of this id, as the works list answers it, or a 404. */
export const ownWork = (router: FeatureRouter, user: SessionUser, id: number, http?: Http) => ownRecord(router, API.works.list, user, id, http);

/** A dub as the REST surface and the webhooks show it. */
export const openDubbing = (d: DubbingRecord) => ({
  id: d.id, name: d.name, status: d.status, url: d.url, srt: d.srt, duration: d.duration, credits: d.credits, reason: d.reason ?? '', create_time: d.create_time,
});

/** The user's dub of this id, as the dubbing history answers it, or a 404. */
export const ownDubbing = (router: FeatureRouter, user: SessionUser, id: number, http?: Http) => ownRecord(router, API.dubbing.list, user, id, http);
