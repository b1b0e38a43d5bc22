/** Request logging: what a line says about a request, with the secrets of signed media URLs left out. */
import type { FastifyRequest } from 'fastify';

/** Query parameters that grant access on their own (signed object URLs, the chat stream's session token). */
const SECRET_PARAMS = /([?&](?:sig|signature|token)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

/** Pino's `req` serializer: Fastify's usual fields, the URL redacted. */
export function requestForLog(req: FastifyRequest) {
  return { method: req.method, url: redactUrl(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}
