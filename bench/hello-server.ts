/** The baseline for the API bench: a bare Fastify hello-world on the same machine, in its own process. */
import Fastify from 'fastify';
import { openRequest } from '../src/contract';
import { serverEnvelopeKeys } from '../server/infra/envelope-keys';

const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));
/** The same size of reply as the call measured against it (an envelope's base64 `data`), built once like a cached reply. */
const padded = new Map<number, string>();
app.get<{ Querystring: { bytes?: string } }>('/sized', async (request, reply) => {
  const bytes = Math.min(Number(request.query.bytes) || 0, 1 << 20);
  if (!padded.has(bytes)) padded.set(bytes, JSON.stringify({ code: 0, msg: 'ok', data: 'x'.repeat(Math.max(0, bytes - 40)) }));
  return reply.type('application/json; charset=utf-8').send(padded.get(bytes));
});
/** The same reply after opening the request's envelope as our router does (HMAC and AES-GCM): the floor the envelope sets. */
app.get<{ Querystring: Record<string, string> & { bytes?: string } }>('/opened', async (request, reply) => {
  const { bytes, ...fields } = request.query;
  if (!openRequest(fields, undefined, serverEnvelopeKeys).ok) return reply.status(400).send({ code: 1 });
  const size = Math.min(Number(bytes) || 0, 1 << 20);
  if (!padded.has(size)) padded.set(size, JSON.stringify({ code: 0, msg: 'ok', data: 'x'.repeat(Math.max(0, size - 40)) }));
  return reply.type('application/json; charset=utf-8').send(padded.get(size));
});
const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
console.log(address);
