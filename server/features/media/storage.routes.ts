/** Serves stored objects. Public objects (keys under public/) need no session; the rest arrive with user media. */
import { assertObjectKey, InvalidObjectKeyError } from '../../infra/storage';
import { MEDIA_TYPES } from '../../infra/media-files';
import type { FeatureContext } from '../../app-context';

export function registerStorageRoutes({ storage }: FeatureContext, app: import('fastify').FastifyInstance): void {
  app.get<{ Params: { file: string } }>('/storage/public/:file', async (request, reply) => {
    const key = `public/${request.params.file}`;
    try {
      assertObjectKey(key);
    } catch (err) {
      if (err instanceof InvalidObjectKeyError) return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
      throw err;
    }
    const info = await storage.stat(key);
    if (!info) return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
    const ext = key.slice(key.lastIndexOf('.') + 1);
    return reply
      .header('content-type', MEDIA_TYPES[ext] ?? 'application/octet-stream')
      .header('content-length', info.size)
      .header('cache-control', 'public, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .send(storage.get(key));
  });
}
