/**
 * The upload flow's logic for both drivers: signing (our own OSS-style policy for the local `/storage` host, or a
 * bucket's presigned POST), receiving the bytes our host is posted, checking stored bytes by content and registering
 * them. Space is reserved before the bytes land, so concurrent uploads can never exceed a user's quota.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { MSG, UPLOAD_FILE_TYPES, type UploadFileType } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import { dataSecret } from '../../infra/data-dir';
import { localFileSize } from '../../infra/user-files';
import type { FeatureContext } from '../../app-context';
import { checkHead, checkMedia, MAX_BYTES, MediaRefused, REFUSED, type CheckedMedia } from './upload.rules';
import { isObjectKey, readHead } from '../../infra/storage';
import { UploadRepository, type Reservation } from './upload.repository';

export const POLICY_TTL_SECONDS = 30 * 60;
/** The Content-Type a bucket upload must declare (its class) and the one the form sends; the real one is set at registration. */
const POSTED_TYPE = {
  video: { typePrefix: 'video/', contentType: 'video/mp4' },
  voice: { typePrefix: 'audio/', contentType: 'audio/mpeg' },
  image: { typePrefix: 'image/', contentType: 'image/png' },
} as const;
const TYPE_LABEL = { video: '视频', voice: '音频', image: '图片' } as const;

/** The name a material keeps: the device's file name without its extension, or a dated default. */
export function materialName(fileName: string | undefined, type: UploadFileType): string {
  const base = (fileName ?? '').replace(/\.[A-Za-z0-9]{1,8}$/, '').trim().slice(0, 50);
  return base || `${TYPE_LABEL[type]}素材${new Date().toISOString().slice(0, 10)}`;
}
/** Multipart framing and the form fields around the file. */
export const FORM_OVERHEAD = 64 * 1024;

export interface Policy {
  exp: number;
  user: number;
  type: UploadFileType;
  upload: string;
  dir: string;
  max: number;
}

export type UploadService = ReturnType<typeof uploadService>;

export function uploadService(ctx: FeatureContext) {
  const { db, storage, urls, settings, config } = ctx;
  const uploads = new UploadRepository(db);
  const secret = dataSecret(config.dataDir, 'storage.key');
  const sign = (policy: string) => createHmac('sha256', secret).update(policy).digest('base64');
  /** S3-compatible storage: browsers post straight to the bucket (a presigned POST), space is held at signing. */
  const bucketUploads = storage.canPresignPost;

  /**
   * The bucket cannot ask us about space, so the policy allows only what is reserved now: the declared size (at
   * most the type's limit), held for the whole upload folder until the upload is registered or swept.
   */
  async function signBucketUpload(userId: number, upload: string, dir: string, type: UploadFileType, bytes: number) {
    const expiresAt = Math.floor(Date.now() / 1000) + POLICY_TTL_SECONDS;
    const refused = await reserveSpace({ upload, userId, type, bytes, key: dir, expiresAt: expiresAt + 3600 });
    if (refused) throw new ApiError(refused);
    const post = await storage.presignPost({ dir, maxBytes: bytes, ...POSTED_TYPE[type], expiresSeconds: POLICY_TTL_SECONDS });
    return { host: post.host, dir, access_key_id: post.accessKeyId, policy: post.policy, signature: post.signature, fields: post.fields };
  }

  function readPolicy(policy: unknown, signature: unknown): Policy | null {
    if (typeof policy !== 'string' || typeof signature !== 'string') return null;
    const expected = Buffer.from(sign(policy));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    try {
      const p = JSON.parse(Buffer.from(policy, 'base64').toString('utf8')) as Policy;
      return p.exp > Date.now() / 1000 && UPLOAD_FILE_TYPES.includes(p.type) ? p : null;
    } catch {
      return null;
    }
  }

  /** Holds bytes of the user's free space for one upload; answers the user's message when refused, else null. */
  async function reserveSpace(r: Reservation): Promise<string | null> {
    const baseGb = await settings.operatorNumber('space_base_gb');
    return db.tx(async (q) => {
      const held = new UploadRepository(q);
      if ((await held.freeBytes(r.userId, baseGb, r.upload)) < r.bytes) return MSG.spaceFull;
      return (await held.reserve(r)) ? null : MSG.uploadExpired;
    });
  }

  /**
   * Reserves the declared size against the user's free space, then streams the bytes to `key`. Answers the
   * user's message when refused (nothing is left behind), or null once the bytes are stored.
   */
  async function receive(r: { userId: number; upload: string; type: UploadFileType; key: string; declared: number; max: number; expiresAt: number; file: Readable & { truncated?: boolean } }): Promise<string | null> {
    const reserved = await reserveSpace({ upload: r.upload, userId: r.userId, type: r.type, bytes: Math.min(r.declared, r.max), key: r.key, expiresAt: r.expiresAt });
    if (reserved) {
      r.file.resume();
      return reserved;
    }
    try {
      const { size } = await storage.put(r.key, r.file);
      if (size === 0) throw new MediaRefused(MSG.fileEmpty);
      if (r.file.truncated || size > r.max) throw new MediaRefused(REFUSED[r.type]);
      await uploads.resize(r.upload, size);
      return null;
    } catch (err) {
      await storage.delete(r.key).catch(() => undefined);
      await uploads.release(r.upload);
      return err instanceof MediaRefused ? err.message : REFUSED[r.type];
    }
  }

  /**
   * Checks stored upload bytes by content and registers them as the user's file and material (or discards them).
   * The size and the first bytes are checked before the (bounded) copy that ffprobe reads.
   */
  async function register(userId: number, key: string, upload: string, type: UploadFileType, name: string | undefined): Promise<{ file_id: number; url: string }> {
    const stat = await storage.stat(key);
    // A bucket's upload folder may hold more than the registered key (a policy posts again until it expires).
    const clearUpload = () => storage.removeAll(key.slice(0, key.lastIndexOf('/') + 1)).catch(() => undefined);
    const discard = async () => {
      await storage.delete(key).catch(() => undefined);
      if (bucketUploads) await clearUpload();
      await uploads.release(upload);
    };
    if (!stat) {
      await discard();
      throw new ApiError(MSG.uploadFailed);
    }
    let media;
    try {
      checkHead(await readHead(storage, key, stat.size), type, stat.size);
      media = await storage.withLocalFile(key, (file) => checkMedia(file, type, stat.size));
    } catch (err) {
      await discard();
      if (err instanceof MediaRefused) throw new ApiError(err.message);
      throw err;
    }
    const finalKey = `${userId}/${randomUUID()}.${media.ext}`;
    await storage.move(key, finalKey);
    const fileId = await db.tx(async (q) => {
      const registered = new UploadRepository(q);
      await registered.release(upload);
      // Every upload is also in the user's material library, until its file is deleted.
      return registered.addFile({ userId, type, key: finalKey, size: stat.size, duration: media.duration, name: materialName(name, type) });
    });
    await storage.delete(key).catch(() => undefined);
    if (bucketUploads) await clearUpload();
    return { file_id: fileId, url: urls.url(finalKey) };
  }

  /** `upload.sign`: a bucket's presigned POST, or our own policy for the local `/storage` host. */
  async function signUpload(userId: number, type: UploadFileType, size: number | undefined) {
    const upload = randomUUID();
    const dir = `uploads/${userId}/${upload}/`;
    const max = MAX_BYTES[type];
    if (bucketUploads) return signBucketUpload(userId, upload, dir, type, Math.min(size ?? max, max));
    const body: Policy = { exp: Math.floor(Date.now() / 1000) + POLICY_TTL_SECONDS, user: userId, type, upload, dir, max };
    // The same facts in the OSS policy vocabulary, for clients that read it.
    const policy = Buffer.from(
      JSON.stringify({ ...body, expiration: new Date(body.exp * 1000).toISOString(), conditions: [['starts-with', '$key', dir], ['content-length-range', 1, max]] }),
    ).toString('base64');
    return { host: '/storage', dir, access_key_id: 'local', policy, signature: sign(policy) };
  }

  /** `upload.complete`: the posted URL must be the user's own reserved upload of that type. */
  async function complete(userId: number, url: string, type: UploadFileType, name: string | undefined) {
    const key = urls.keyOf(url) ?? (await storage.keyOfPostedUrl(url));
    const m = key ? /^uploads\/(\d+)\/([0-9a-f-]{36})\//.exec(key) : null;
    if (!key || !m || Number(m[1]) !== userId || !isObjectKey(key)) throw new ApiError(MSG.uploadFailed);
    const upload = m[2]!;
    const reservedType = await uploads.reservedType(upload, userId, key);
    if (!reservedType) throw new ApiError(MSG.uploadExpired);
    if (reservedType !== type) throw new ApiError(MSG.uploadFailed);
    return register(userId, key, upload, type, name);
  }

  /**
   * A file posted in one multipart request (the voice-clone audio, the public API's uploads): stored under the
   * user's space, checked by content and registered; refused with the type's message (ApiError).
   */
  async function acceptPosted(p: { userId: number; type: UploadFileType; declared: number; file: Readable & { truncated?: boolean }; fileName: string | undefined }) {
    const upload = randomUUID();
    const key = `uploads/${p.userId}/${upload}/${Date.now()}`;
    const expiresAt = Math.floor(Date.now() / 1000) + POLICY_TTL_SECONDS;
    const refused = await receive({ userId: p.userId, upload, type: p.type, key, declared: p.declared, max: MAX_BYTES[p.type], expiresAt, file: p.file });
    if (refused) throw new ApiError(refused);
    return register(p.userId, key, upload, p.type, p.fileName);
  }

  return { signUpload, complete, readPolicy, receive, register, acceptPosted };
}

/**
 * A file on the server machine that the operator publishes (`given` as they typed it), checked as an upload of
 * `type` would be; a refusal names the file.
 */
export async function checkOperatorFile(given: string, type: UploadFileType): Promise<{ file: string; media: CheckedMedia }> {
  const file = path.resolve(given);
  const size = localFileSize(file);
  if (size === null) throw new ApiError(`文件不存在：${given}`);
  try {
    return { file, media: await checkMedia(file, type, size) };
  } catch (err) {
    if (err instanceof MediaRefused) throw new ApiError(`${given}：${err.message}`);
    throw err;
  }
}
