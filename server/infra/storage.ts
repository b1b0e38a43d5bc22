/**
 * Object storage. Keys are always made by the server (`<user>/<uuid>.<ext>`), never taken from a client.
 * The local-disk driver keeps objects under DATA_DIR/objects; an S3-compatible driver implements the same interface.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';

export interface ObjectInfo {
  key: string;
  size: number;
}

export interface Storage {
  put(key: string, body: Readable | Buffer): Promise<ObjectInfo>;
  get(key: string): Readable;
  stat(key: string): Promise<ObjectInfo | null>;
  delete(key: string): Promise<void>;
}

const SAFE_EXT = /^[a-z0-9]{1,8}$/;
const KEY_SHAPE = /^\d{1,10}\/[0-9a-f-]{36}\.[a-z0-9]{1,8}$|^public\/[0-9a-f-]{36}\.[a-z0-9]{1,8}$/;

export class InvalidObjectKeyError extends Error {}

/** A fresh key for a user's object; the extension is ours (from content sniffing), not the client's file name. */
export function newObjectKey(owner: number | 'public', ext: string): string {
  if (!SAFE_EXT.test(ext)) throw new InvalidObjectKeyError(`bad extension ${ext}`);
  return `${owner}/${randomUUID()}.${ext}`;
}

export function assertObjectKey(key: string): void {
  if (!KEY_SHAPE.test(key)) throw new InvalidObjectKeyError('invalid object key');
}

export class LocalDiskStorage implements Storage {
  constructor(private readonly root: string) {
    fs.mkdirSync(root, { recursive: true });
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

  get(key: string): Readable {
    return fs.createReadStream(this.file(key));
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
    await fs.promises.rm(this.file(key), { force: true });
  }
}
