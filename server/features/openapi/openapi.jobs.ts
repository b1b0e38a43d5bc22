/**
 * `openapi-webhook`: a work an API key submitted is looked at until it ends; then its event is recorded once and
 * posted, signed, to the key's callback URL under the SSRF guard, retried with doubling delays for
 * LIMITS.openApi.webhookRetryHours. Each attempt's outcome is what the key page's delivery log shows.
 */
import { DeliveryStatus, LIMITS, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER, WorkStatus, type WebhookEvent } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import { FetchRefused, guardedPost } from '../../infra/guarded-fetch';
import type { JobPayloads } from '../../infra/queue';
import type { FeatureContext } from '../../app-context';
import { OpenApiRepository } from './openapi.repository';
import { WATCH_SECONDS, openWork, ownWork, webhookSignature } from './openapi.service';

type Payload = JobPayloads['openapi-webhook'];

/** The longest wait between two attempts. */
const MAX_RETRY_SECONDS = 6 * 3600;

export async function runWebhook(ctx: FeatureContext, payload: Payload): Promise<void> {
  const keys = new OpenApiRepository(ctx.db);
  if (payload.deliveryId !== undefined) return deliver(ctx, keys, payload.deliveryId, payload);
  const key = await keys.liveKey(payload.keyId);
  if (!key?.webhook_url) return;
  let work;
  try {
    work = await ownWork(ctx.router, { id: key.user_id, username: key.username, is_tourist: 0, token: '' }, payload.workId);
  } catch (err) {
    if (err instanceof ApiError) return; // deleted before it ended: nothing to announce
    throw err;
  }
  if (work.status !== WorkStatus.Success && work.status !== WorkStatus.Failed) {
    await ctx.queue.send('openapi-webhook', payload, { startAfter: ctx.config.openApi?.watchSeconds ?? WATCH_SECONDS });
    return;
  }
  const event: WebhookEvent = work.status === WorkStatus.Success ? 'work.done' : 'work.failed';
  const body = JSON.stringify({ event, created: Math.floor(Date.now() / 1000), data: openWork(work) });
  const deliveryId = await keys.addDelivery({ keyId: key.id, event, objectId: work.id, body });
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
