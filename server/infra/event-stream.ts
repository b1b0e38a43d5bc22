/**
 * The answer streams (the copy chat's answer, the copy rewrite) are not envelope calls: an EventSource-style GET with the
 * token in the query, answered as text/event-stream with one ChatStreamEvent a `data:` line.
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { LIMITS, MSG, ResultCode, type CallDef, type ChatStreamEvent } from '../../src/contract';
import { sendResult, validationMessage, type FeatureRouter, type SessionUser } from './http';
import type { Sessions } from './sessions';

/** What a stream call's request carries at the least. */
type StreamCall = CallDef<z.ZodType<{ token: string }>>;

/** Writes the answer through `send`; `signal` aborts when the browser leaves or the server closes. */
export type StreamAnswer<C extends StreamCall> = (
  user: SessionUser,
  params: z.output<C['request']>,
  send: (event: ChatStreamEvent) => void,
  signal: AbortSignal,
  log: FastifyBaseLogger,
) => Promise<void>;

/** Registers `call` as an event stream: bad input and a stale token answer an envelope; a failure ends the stream with MSG.serverError. */
export function handleEventStream<C extends StreamCall>(
  deps: { router: FeatureRouter; app: FastifyInstance; sessions: Sessions },
  call: C,
  failure: string,
  answer: StreamAnswer<C>,
): void {
  const { router, app, sessions } = deps;
  router.handledElsewhere(call);
  const open = new Set<AbortController>();
  app.addHook('preClose', async () => {
    for (const stream of open) stream.abort();
  });
  app.get(call.path, { config: { call } }, async (request: FastifyRequest, reply: FastifyReply) => {
    // No token, or an empty one, is a missing session as on every other authenticated call (code 100 sends the
    // browser back to login), not a bad field.
    const token = (request.query as Record<string, unknown> | undefined)?.token;
    if (typeof token !== 'string' || token.trim() === '') return sendResult(reply, call, ResultCode.SessionExpired, MSG.sessionExpired, null);
    const parsed = call.request.safeParse(request.query ?? {});
    if (!parsed.success) return sendResult(reply, call, ResultCode.Error, validationMessage(parsed.error), null);
    const user = await sessions.authenticate(parsed.data.token);
    if (!user) return sendResult(reply, call, ResultCode.SessionExpired, MSG.sessionExpired, null);

    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
    res.flushHeaders();
    const browser = new AbortController();
    open.add(browser);
    res.on('close', () => browser.abort());
    const send = (event: ChatStreamEvent) => {
      if (!res.destroyed) res.write(`data: ${JSON.stringify(event)}\n\n`);
    };
    // Proxies close a silent connection; r1 may think for a while before its first word.
    const keepAlive = setInterval(() => !res.destroyed && res.write(': keep-alive\n\n'), LIMITS.chatKeepAliveMs);
    try {
      await answer(user, parsed.data as z.output<C['request']>, send, browser.signal, request.log);
    } catch (err) {
      request.log.error({ err, call: call.id }, failure);
      send({ message: '', error: MSG.serverError, done: 1 });
    } finally {
      clearInterval(keepAlive);
      open.delete(browser);
      res.end();
    }
  });
}
