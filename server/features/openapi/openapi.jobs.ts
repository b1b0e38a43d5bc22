/**
 * `openapi-webhook`: a work or a dub an API key submitted is looked at until it ends; then its event is recorded once
 * and posted, signed, to the key's callback URL under the SSRF guard, retried with doubling delays for
 * LIMITS.openApi.webhookRetryHours. Each attempt's outcome is what the key page's delivery log shows.
 */
import { DeliveryStatus, DubbingStatus, LIMITS, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER, WorkStatus, type WebhookEvent } from '../../../src/contract';
import { ApiError, type SessionUser } from '../../infra/http';
import { FetchRefused, guardedPost } from '../../infra/guarded-fetch';
import type { JobPayloads } from '../../infra/queue';
import type { FeatureContext } from '../../app-context';
import { OpenApiRepository } from './openapi.repository';
import { WATCH_SECONDS, openDubbing, openWork, ownDubbing, ownWork, webhookSignature } from './openapi.service';

type Payload = JobPayloads['openapi-webhook'];

/** The longest wait between two attempts. */
const MAX_RETRY_SECONDS = 6 * 3600;

/** Each watched kind: the object as the REST surface shows it to its owner, and its event once it has ended. */
const WATCHED: Record<Payload['kind'], {
  find: (ctx: FeatureContext, user: SessionUser, id: number) => Promise<{ id: number; status: number }>;
  ended: (status: number) => WebhookEvent | undefined;
}> = {
  work: {
    find: async (ctx, user, id) => openWork(await ownWork(ctx.router, user, id)),
    ended: (s) => (s === WorkStatus.Success ? 'work.done' : s === WorkStatus.Failed ? 'work.failed' : undefined),
  },
  dubbing: {
    find: async (ctx, user, id) => openDubbing(await ownDubbing(ctx.router, user, id)),
    ended: (s) => (s === DubbingStatus.Done ? 'dubbing.done' : s === DubbingStatus.Failed ? 'dubbing.failed' : undefined),
  },
};

export async function runWebhook(ctx: FeatureContext, payload: Payload): Promise<void> {
  const keys = new OpenApiRepository(ctx.db);
  if (payload.deliveryId !== undefined) return deliver(ctx, keys, payload.deliveryId, payload);
  const key = await keys.liveKey(payload.keyId);
  if (!key?.webhook_url) return;
  const watched = WATCHED[payload.kind];
  let data;
  try {
    data = await watched.find(ctx, { id: key.user_id, username: key.username, is_tourist: 0, token: '' }, payload.objectId);
  } catch (err) {
    if (err instanceof ApiError) return; // deleted before it ended: nothing to announce
    throw err;
  }
  const event = watched.ended(data.status);
  if (!event) {
    await ctx.queue.send('openapi-webhook', payload, { startAfter: ctx.config.openApi?.watchSeconds ?? WATCH_SECONDS });
    return;
  }
  const body = JSON.stringify({ event, created: Math.floor(Date.now() / 1000), data });
  const deliveryId = await keys.addDelivery({ keyId: key.id, event, objectId: data.id, body });
  if (deliveryId !== undefined) await deliver(ctx, keys, deliveryId, payload);
}

/** One attempt; a failure before the retry window closes queues the next after twice the last delay. */
async function deliver(ctx: FeatureContext, keys: OpenApiRepository, deliveryId: number, payload: Payload): Promise<void> {
  const d = await keys.delivery(deliveryId);
  if (!d || Number(d.status) !== DeliveryStatus.Pending || !d.webhook_url) return;
  const timestamp = Math.floor(Date.now() / 1000);
  let code = 0;
  try {
    code = await guardedPost(
      d.webhook_url, d.body,
      { [WEBHOOK_TIMESTAMP_HEADER]: String(timestamp), [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(d.webhook_secret, timestamp, d.body) },
      { allowLoopback: !!ctx.config.openApi?.webhookLoopback, timeoutMs: LIMITS.openApi.webhookTimeoutMs },
    );
  } catch (err) {
    if (!(err instanceof FetchRefused)) throw err;
  }
  if (code >= 200 && code < 300) return keys.recordAttempt(d.id, code, DeliveryStatus.Delivered);
  const first = ctx.config.openApi?.webhookRetrySeconds ?? LIMITS.openApi.webhookFirstRetrySeconds;
  const wait = Math.min(MAX_RETRY_SECONDS, first * 2 ** Number(d.attempts));
  const open = Date.now() + wait * 1000 - new Date(d.created_at).getTime() < LIMITS.openApi.webhookRetryHours * 3600_000;
  await keys.recordAttempt(d.id, code, open ? DeliveryStatus.Pending : DeliveryStatus.Failed);
  if (open) await ctx.queue.send('openapi-webhook', { ...payload, deliveryId: d.id }, { startAfter: wait });
}
