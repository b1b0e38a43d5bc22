/**
 * The signed envelope, used both ways (ARCHITECTURE.md "The signed envelope").
 *
 * Request fields (form-encoded, or the query string of a GET/DELETE):
 *   check=1, timestamp=<unix seconds>, data=<AES-256-GCM of the JSON params>, sign=<HMAC-SHA256 of the sorted fields>
 * Reply: { code, msg, data: <AES-256-GCM of the JSON data>, timestamp, sign }.
 *
 * The secret ships in the browser bundle, so this gives integrity and obfuscation, not secrecy:
 * real protection is the session token and per-object checks on the server.
 * Pure JS (noble) rather than WebCrypto so it also works on plain-http LAN addresses,
 * where browsers hide `crypto.subtle`.
 */
import { gcm } from '@noble/ciphers/aes.js';
import { bytesToUtf8, equalBytes, hexToBytes, randomBytes, utf8ToBytes, bytesToHex } from '@noble/ciphers/utils.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { LIMITS } from './limits';
import type { ResultCode } from './codes';

export const ENVELOPE_SECRET = 'ai-super-avatar/envelope/v1';

const NONCE_BYTES = 12;

/**
 * The primitives behind the envelope. The browser uses noble (pure JS, works without WebCrypto);
 * the server plugs in node:crypto for speed. Both produce the same bytes: AES-256-GCM as ciphertext‖tag.
 */
export interface CryptoBackend {
  gcmEncrypt(key: Uint8Array, nonce: Uint8Array, plain: Uint8Array): Uint8Array;
  /** Throws when the tag does not verify. */
  gcmDecrypt(key: Uint8Array, nonce: Uint8Array, sealed: Uint8Array): Uint8Array;
  hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array;
  randomBytes(length: number): Uint8Array;
  toBase64(bytes: Uint8Array): string;
  fromBase64(text: string): Uint8Array;
  toHex(bytes: Uint8Array): string;
}

export const nobleBackend: CryptoBackend = {
  gcmEncrypt: (key, nonce, plain) => gcm(key, nonce).encrypt(plain),
  gcmDecrypt: (key, nonce, sealed) => gcm(key, nonce).decrypt(sealed),
  hmacSha256: (key, message) => hmac(sha256, key, message),
  randomBytes,
  toBase64,
  fromBase64,
  toHex: bytesToHex,
};

export interface EnvelopeKeys {
  enc: Uint8Array;
  mac: Uint8Array;
  backend: CryptoBackend;
}

export function deriveKeys(secret: string = ENVELOPE_SECRET, backend: CryptoBackend = nobleBackend): EnvelopeKeys {
  return { enc: sha256(utf8ToBytes(`${secret}:enc`)), mac: sha256(utf8ToBytes(`${secret}:mac`)), backend };
}

const defaultKeys = deriveKeys();

export interface SealedRequest {
  check: '1';
  timestamp: string;
  data: string;
  sign: string;
  [key: string]: string;
}

export interface SealedReply {
  code: ResultCode;
  msg: string;
  data: string;
  timestamp: number;
  sign: string;
}

export type OpenResult<T> = { ok: true; value: T } | { ok: false; reason: 'shape' | 'sign' | 'stale' | 'data' };

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export function encryptJson(value: unknown, keys: EnvelopeKeys = defaultKeys): string {
  const nonce = keys.backend.randomBytes(NONCE_BYTES);
  const sealed = keys.backend.gcmEncrypt(keys.enc, nonce, utf8ToBytes(JSON.stringify(value ?? null)));
  const out = new Uint8Array(NONCE_BYTES + sealed.length);
  out.set(nonce);
  out.set(sealed, NONCE_BYTES);
  return keys.backend.toBase64(out);
}

/** Throws on anything that is not our ciphertext of valid JSON. */
export function decryptJson(text: string, keys: EnvelopeKeys = defaultKeys): unknown {
  const bytes = keys.backend.fromBase64(text);
  if (bytes.length <= NONCE_BYTES) throw new Error('short');
  const plain = keys.backend.gcmDecrypt(keys.enc, bytes.subarray(0, NONCE_BYTES), bytes.subarray(NONCE_BYTES));
  return JSON.parse(bytesToUtf8(plain));
}

/** Canonical form: every field but `sign`, sorted by name, `k=v` joined with `&`. */
export function canonical(fields: Record<string, unknown>): string {
  return Object.keys(fields)
    .filter((k) => k !== 'sign')
    .sort()
    .map((k) => `${k}=${String(fields[k])}`)
    .join('&');
}

export function signFields(fields: Record<string, unknown>, keys: EnvelopeKeys = defaultKeys): string {
  return keys.backend.toHex(keys.backend.hmacSha256(keys.mac, utf8ToBytes(canonical(fields))));
}

function signatureMatches(fields: Record<string, unknown>, sign: unknown, keys: EnvelopeKeys): boolean {
  if (typeof sign !== 'string' || !/^[0-9a-f]{64}$/.test(sign)) return false;
  // The MAC's own bytes against the given hex's: no hex round trip of ours on every request.
  return equalBytes(keys.backend.hmacSha256(keys.mac, utf8ToBytes(canonical(fields))), hexToBytes(sign));
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

export function sealRequest(params: unknown, now = nowSeconds(), keys: EnvelopeKeys = defaultKeys): SealedRequest {
  const fields = { check: '1' as const, timestamp: String(now), data: encryptJson(params ?? {}, keys) };
  return { ...fields, sign: signFields(fields, keys) };
}

export function openRequest(fields: Record<string, unknown>, now = nowSeconds(), keys: EnvelopeKeys = defaultKeys): OpenResult<unknown> {
  const { check, timestamp, data, sign } = fields;
  if (check !== '1' || typeof timestamp !== 'string' || typeof data !== 'string') return { ok: false, reason: 'shape' };
  if (!signatureMatches({ check, timestamp, data }, sign, keys)) return { ok: false, reason: 'sign' };
  const ts = Number(timestamp);
  if (!Number.isInteger(ts) || Math.abs(now - ts) > LIMITS.envelopeSkewSeconds) return { ok: false, reason: 'stale' };
  try {
    return { ok: true, value: decryptJson(data, keys) };
  } catch {
    return { ok: false, reason: 'data' };
  }
}

export function sealReply(code: ResultCode, msg: string, data: unknown, now = nowSeconds(), keys: EnvelopeKeys = defaultKeys): SealedReply {
  const fields = { code, msg, data: encryptJson(data ?? null, keys), timestamp: now };
  return { ...fields, sign: signFields(fields, keys) };
}

export function openReply(reply: Record<string, unknown>, now = nowSeconds(), keys: EnvelopeKeys = defaultKeys): OpenResult<{ code: ResultCode; msg: string; data: unknown }> {
  const { code, msg, data, timestamp, sign } = reply;
  if (typeof code !== 'number' || typeof msg !== 'string' || typeof data !== 'string' || typeof timestamp !== 'number') {
    return { ok: false, reason: 'shape' };
  }
  if (!signatureMatches({ code, msg, data, timestamp }, sign, keys)) return { ok: false, reason: 'sign' };
  if (Math.abs(now - timestamp) > LIMITS.envelopeSkewSeconds) return { ok: false, reason: 'stale' };
  try {
    return { ok: true, value: { code: code as ResultCode, msg, data: decryptJson(data, keys) } };
  } catch {
    return { ok: false, reason: 'data' };
  }
}
