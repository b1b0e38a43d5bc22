/** The browser's calls of the key page (账号 → API 密钥): create (shown once), list, revoke, callback URL, delivery log. */
import { API, LIMITS, MSG } from '../../../src/contract';
import { ApiError, WithMessage, found } from '../../infra/http';
import { formatDateTime } from '../../infra/time';
import type { FeatureContext } from '../../app-context';
import { OpenApiRepository } from './openapi.repository';
import { newKey, webhookUrlRefused } from './openapi.service';

export function registerKeyRoutes(ctx: FeatureContext): void {
  const { router, db, config } = ctx;
  const keys = new OpenApiRepository(db);

  router.handle(API.openapi.keyCreate, async ({ params, user }) => {
    if (user.is_tourist) throw new ApiError(MSG.apiKeyGuest);
    const made = newKey();
    const id = await db.tx((q) => new OpenApiRepository(q).addKey({ userId: user.id, name: params.name, prefix: made.prefix, hash: made.hash, webhookSecret: made.webhookSecret }, LIMITS.openApi.maxKeys));
    if (id === undefined) throw new ApiError(MSG.apiKeyLimit(LIMITS.openApi.maxKeys));
    return new WithMessage({ id, key: made.key, webhook_secret: made.webhookSecret }, MSG.apiKeyCreated);
  });

  router.handle(API.openapi.keyList, async ({ user }) => ({
    list: (await keys.keys(user.id)).map((k) => ({
      id: k.id, name: k.name, prefix: k.prefix, create_time: formatDateTime(k.created_at), last_used_time: k.last_used_at ? formatDateTime(k.last_used_at) : '', webhook_url: k.webhook_url,
    })),
  }));

  router.handle(API.openapi.keyRemove, async ({ params, user }) => {
    found(await keys.revoke(params.id, user.id), MSG.apiKeyMissing);
    return new WithMessage({}, MSG.apiKeyRevoked);
  });

  router.handle(API.openapi.webhookSet, async ({ params, user }) => {
    if (params.url && webhookUrlRefused(params.url, config)) throw new ApiError(MSG.webhookUrlInvalid);
    found(await keys.setWebhook(params.id, user.id, params.url), MSG.apiKeyMissing);
    return new WithMessage({}, MSG.webhookSaved);
  });

  router.handle(API.openapi.deliveries, async ({ params, user }) => {
    found(await keys.key(params.id, user.id), MSG.apiKeyMissing);
    const rows = await keys.deliveries(params.id, LIMITS.openApi.deliveryLogSize);
    return {
      list: rows.map((d) => ({
        id: d.id, event: d.event, object_id: Number(d.object_id), status: Number(d.status), attempts: Number(d.attempts), last_code: Number(d.last_code),
        create_time: formatDateTime(d.created_at), update_time: formatDateTime(d.updated_at),
      })),
    };
  });
}
