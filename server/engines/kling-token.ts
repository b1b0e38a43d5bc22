/** Kling's authentication, shared by its video and image engines: an HS256 JWT sent as the Bearer token. */
import { createHmac } from 'node:crypto';

/** How long a token is valid; nbf is set 5 s back for clock skew. */
export const KLING_TOKEN_SECONDS = 1800;

const base64url = (data: string) => Buffer.from(data).toString('base64url');

/** iss = the access key, exp = now + KLING_TOKEN_SECONDS, nbf = now − 5, signed with the secret key. */
export function klingToken(accessKey: string, secretKey: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const head = `${base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${base64url(JSON.stringify({ iss: accessKey, exp: nowSeconds + KLING_TOKEN_SECONDS, nbf: nowSeconds - 5 }))}`;
  return `${head}.${createHmac('sha256', secretKey).update(head).digest('base64url')}`;
}
