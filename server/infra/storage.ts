/**
 * Object storage. Keys are always made by the server (`<user>/<uuid>.<ext>`), never taken from a client.
 * The local-disk driver keeps objects under DATA_DIR/objects; an S3-compatible driver implements the same interface.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { MEDIA_TYPES } from './media-files';

export interface ObjectInfo {
  key: string;
  size: number;
}

/** A browser's direct upload to the bucket: the form's target, its signed policy and the further fields it needs. */
export interface PresignedPost {
  host: string;
  accessKeyId: string;
  policy: string;
  signature: string;
  /** Every other form field the policy names (x-amz-*, Content-Type, success_action_status), sent as they are. */
  fields: Record<string, string>;
}

export interface PostPolicyLimits {
  /** Key prefix the upload must stay under. */
  dir: string;
  maxBytes: number;
  /** The Content-Type sent must start with this (`video/`, `audio/`, `image/`); `contentType` is the one the form sends. */
  typePrefix: string;
  contentType: string;
  expiresSeconds: number;
}

export interface Storage {
  put(key: string, body: Readable | Buffer): Promise<ObjectInfo>;
  get(key: string, range?: { start: number; end: number }): Readable;
  stat(key: string): Promise<ObjectInfo | null>;
  delete(key: string): Promise<void>;
  move(from: string, to: string): Promise<void>;
  /** Runs fn with a local file holding the object (the object's own file on disk; a temp copy elsewhere). */
  withLocalFile<T>(key: string, fn: (file: string) => Promise<T>): Promise<T>;
  /** Resolves when the storage answers and takes writes (readiness); rejects with the reason otherwise. */
  ping(): Promise<void>;
  /** Objects whose keys start with prefix ('' for all). */
  list(prefix: string): Promise<ObjectInfo[]>;
  /** Deletes every object whose key starts with prefix ('' for all). */
  removeAll(prefix: string): Promise<void>;
  /** S3: browsers upload straight to the bucket (presignPost); local disk: to the server's own `/storage` host. */
  readonly canPresignPost: boolean;
  /** A presigned POST for one browser upload (only where canPresignPost). */
  presignPost(limits: PostPolicyLimits): Promise<PresignedPost>;
  /** The key of a `<host>/<key>` URL that a presigned POST's host makes, or null (not such a URL / no such host). */
  keyOfPostedUrl(url: string): Promise<string | null>;
  /**
   * S3: a short-lived presigned GET of a (private) object, answered with our Content-Type; null: the server serves
   * it from `/storage` itself.
   */
  readUrl(key: string, options: { download?: string; cacheControl: string }): Promise<string | null>;
  /**
   * The origins other than our own that a browser talks to for stored objects: `reads` answers presigned GETs
   * (pictures, media, downloads, waveforms), `uploads` takes presigned POSTs. Empty on local disk. The page's
   * Content-Security-Policy names exactly these.
   */
  browserOrigins(): Promise<StorageOrigins>;
}

export interface StorageOrigins {
  reads: string[];
  uploads: string[];
}

const SAFE_EXT = /^[a-z0-9]{1,8}$/;
/** Final objects `<user>/<uuid>.<ext>` and `public/<uuid>.<ext>`; direct uploads land first at `uploads/<user>/<uuid>/<digits>[.ext]`. */
const KEY_SHAPE = /^\d{1,10}\/[0-9a-f-]{36}\.[a-z0-9]{1,8}$|^public\/[0-9a-f-]{36}\.[a-z0-9]{1,8}$|^uploads\/\d{1,10}\/[0-9a-f-]{36}\/\d{10,30}(\.[A-Za-z0-9]{1,8})?$/;

export class InvalidObjectKeyError extends Error {}

/** The Content-Type an object is stored and served with, from its (server-made) extension. */
export const contentTypeOf = (key: string) => MEDIA_TYPES[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream';

/** A fresh key for a user's object; the extension is ours (from content sniffing), not the client's file name. */
export function newObjectKey(owner: number | 'public', ext: string): string {
  if (!SAFE_EXT.test(ext)) throw new InvalidObjectKeyError(`bad extension ${ext}`);
  return `${owner}/${randomUUID()}.${ext}`;
}

export const isObjectKey = (key: string) => KEY_SHAPE.test(key);

export function assertObjectKey(key: string): void {
  if (!isObjectKey(key)) throw new InvalidObjectKeyError('invalid object key');
}

/** Copies a stored object into a job's directory (inputs of ffmpeg must be local, seekable files). */
export async function fetchObject(storage: Storage, key: string, file: string): Promise<string> {
  await pipeline(storage.get(key), fs.createWriteStream(file));
  return file;
}

/** The first bytes of an object (a ranged read), for a format check before anything larger is fetched. */
export async function readHead(storage: Storage, key: string, size: number, bytes = 64): Promise<Buffer> {
  if (size <= 0) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  for await (const chunk of storage.get(key, { start: 0, end: Math.min(size, bytes) - 1 })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export class LocalDiskStorage implements Storage {
  constructor(private readonly root: string) {
    fs.mkdirSync(root, { recursive: true });
  }

  ping(): Promise<void> {
    return fs.promises.access(this.root, fs.constants.W_OK);
  }

  private file(key: string): string {
    assertObjectKey(key);
    return path.join(this.root, key);
  }

  async put(key: string, body: Readable | Buffer): Promise<ObjectInfo> {
    const target = this.file(key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${process.pid}.part`;
    try {
      if (Buffer.isBuffer(body)) await fs.promises.writeFile(temp, body);
      else await pipeline(body, fs.createWriteStream(temp));
      await fs.promises.rename(temp, target);
    } catch (err) {
      await fs.promises.rm(temp, { force: true });
      throw err;
    }
    const { size } = await fs.promises.stat(target);
    return { key, size };
  }

  get(key: string, range?: { start: number; end: number }): Readable {
    return fs.createReadStream(this.file(key), range);
  }

  async move(from: string, to: string): Promise<void> {
    const target = this.file(to);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await fs.promises.rename(this.file(from), target);
  }

  async withLocalFile<T>(key: string, fn: (file: string) => Promise<T>): Promise<T> {
    return fn(this.file(key));
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    try {
      const s = await fs.promises.stat(this.file(key));
      return { key, size: s.size };
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.file(key);
    await fs.promises.rm(file, { force: true });
    // Direct uploads live in a folder of their own; remove it once empty.
    if (key.startsWith('uploads/')) await fs.promises.rmdir(path.dirname(file)).catch(() => undefined);
  }

  async list(prefix: string): Promise<ObjectInfo[]> {
    const entries = await fs.promises.readdir(this.root, { recursive: true, withFileTypes: true }).catch(() => []);
    const found: ObjectInfo[] = [];
    for (const e of entries) {
      if (!e.isFile() || e.name.endsWith('.part')) continue;
      const full = path.join(e.parentPath, e.name);
      const key = path.relative(this.root, full).split(path.sep).join('/');
      if (key.startsWith(prefix)) found.push({ key, size: (await fs.promises.stat(full)).size });
    }
    return found;
  }

  async removeAll(prefix: string): Promise<void> {
    for (const { key } of await this.list(prefix)) await this.delete(key);
  }

  readonly canPresignPost = false;

  presignPost(): Promise<PresignedPost> {
    return Promise.reject(new Error('local disk storage takes uploads at the server\'s /storage host'));
  }

  async keyOfPostedUrl(): Promise<null> {
    return null;
  }

  async browserOrigins(): Promise<StorageOrigins> {
    return { reads: [], uploads: [] };
  }

  async readUrl(): Promise<null> {
    return null;
  }
}
