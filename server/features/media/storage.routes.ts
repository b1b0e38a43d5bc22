/**
 * Serves stored objects: public ones (keys under public/) to anyone, a user's own behind signed URLs
 * (`ObjectUrls`), with Range requests for video seeking. Anything else, or a bad signature, is a plain 404.
 */
import type { FastifyReply } from 'fastify';
import { contentTypeOf, isObjectKey } from '../../infra/storage';
import type { FeatureContext } from '../../app-context';

const USER_OBJECT_KEY = /^\d{1,10}\/[0-9a-f-]{36}\.[a-z0-9]{1,8}$/;

const notFound = (reply: FastifyReply) => reply.status(404).type('text/plain; charset=utf-8').send('Not found');
const PUBLIC_CACHE = 'public, max-age=86400';
const PRIVATE_CACHE = 'private, max-age=3600';
/** A redirect to a presigned GET is made afresh for each request: a browser may keep it a minute, not past the GET's expiry. */
const REDIRECT_CACHE = 'private, max-age=60';

export function registerStorageRoutes({ app, storage, urls }: FeatureContext): void {
  app.get<{ Params: { file: string } }>('/storage/public/:file', async (request, reply) => {
    const key = `public/${request.params.file}`;
    if (!isObjectKey(key)) return notFound(reply);
    const presigned = await storage.readUrl(key, { cacheControl: PUBLIC_CACHE });
    if (presigned) return reply.header('cache-control', REDIRECT_CACHE).redirect(presigned, 302);
    const info = await storage.stat(key);
    if (!info) return notFound(reply);
    return reply
      .header('content-type', contentTypeOf(key))
      .header('content-length', info.size)
      .header('cache-control', PUBLIC_CACHE)
      .header('x-content-type-options', 'nosniff')
      .send(storage.get(key));
  });

  app.get<{ Params: { owner: string; file: string }; Querystring: { exp?: string; sig?: string; download?: string } }>(
    '/storage/:owner/:file',
    async (request, reply) => {
      const key = `${request.params.owner}/${request.params.file}`;
      if (!USER_OBJECT_KEY.test(key) || !urls.verify(key, request.query.exp, request.query.sig)) return notFound(reply);
      // S3: the bucket itself answers (ranges included) through a presigned GET.
      const presigned = await storage.readUrl(key, { cacheControl: PRIVATE_CACHE, download: request.query.download ? request.params.file : undefined });
      if (presigned) return reply.header('cache-control', REDIRECT_CACHE).redirect(presigned, 302);
      const info = await storage.stat(key);
      if (!info) return notFound(reply);
      reply
        .header('content-type', contentTypeOf(key))
        .header('accept-ranges', 'bytes')
        .header('cache-control', PRIVATE_CACHE)
        .header('x-content-type-options', 'nosniff');
      if (request.query.download) reply.header('content-disposition', `attachment; filename="${request.params.file}"`);
      const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? '');
      if (range && (range[1] || range[2])) {
        const start = range[1] ? Number(range[1]) : Math.max(0, info.size - Number(range[2]));
        const end = range[1] && range[2] ? Math.min(Number(range[2]), info.size - 1) : info.size - 1;
        if (start > end || start >= info.size) return reply.status(416).header('content-range', `bytes */${info.size}`).send();
        return reply
          .status(206)
          .header('content-range', `bytes ${start}-${end}/${info.size}`)
          .header('content-length', end - start + 1)
          .send(storage.get(key, { start, end }));
      }
      return reply.header('content-length', info.size).send(storage.get(key));
    },
  );
}
