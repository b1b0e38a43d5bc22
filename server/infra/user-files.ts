/**
 * Objects and their `files` rows, kept together: every stored object a user owns is one row, so it counts in
 * their space and is deleted with its row. Features store, publish and delete objects only through here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ApiError } from './http';
import { fetchObject, newObjectKey, type Storage } from './storage';
import { withWorkDir } from './work-dirs';
import { sniffFile } from './media-files';
import type { Queryable } from './db';

export interface FileStore {
  db: Queryable;
  storage: Storage;
}

export type StoredKind = 'video' | 'image' | 'voice' | 'other';

/** Stores a finished local file as one of the user's objects (or a public one for `null`), counted in their space. */
export async function storeUserFile({ db, storage }: FileStore, userId: number | null, file: string, ext: string, kind: StoredKind, duration = 0) {
  const key = newObjectKey(userId ?? 'public', ext);
  const { size } = await storage.put(key, fs.createReadStream(file));
  const { rows } = await db.query<{ id: number }>(`INSERT INTO files (user_id, kind, object_key, size, duration) VALUES ($1, $2, $3, $4, $5) RETURNING id`, [userId, kind, key, size, duration]);
  return { key, fileId: rows[0]!.id };
}

/**
 * The user's own copy of a stored object (saving a result to the material library), so that deleting either one
 * leaves the other whole. The object passes through a work folder under the data directory.
 */
export async function copyToUserFile(store: FileStore & { config: { dataDir: string } }, userId: number, key: string, ext: string, kind: StoredKind, duration = 0) {
  return withWorkDir(store.config.dataDir, async (dir) => {
    const file = await fetchObject(store.storage, key, path.join(dir, `copy.${ext}`));
    return storeUserFile(store, userId, file, ext, kind, duration);
  });
}

export async function deleteObjects({ db, storage }: FileStore, keys: string[]): Promise<void> {
  const live = keys.filter(Boolean);
  if (!live.length) return;
  await db.query('DELETE FROM files WHERE object_key = ANY($1)', [live]);
  for (const key of live) await storage.delete(key).catch(() => undefined);
}

const PUBLISHABLE = { video: ['mp4', 'mov'], image: ['png', 'jpg', 'webp'], voice: ['mp3', 'wav', 'm4a'] } as const;
export type PublishableKind = keyof typeof PUBLISHABLE;

/** The `files` row of a stored object (to hand a published file to a clone job). */
export async function fileIdOf(db: Queryable, key: string): Promise<number | undefined> {
  return (await db.query<{ id: number }>('SELECT id FROM files WHERE object_key = $1', [key])).rows[0]?.id;
}

/** The size of the regular file an operator's path names, or null: a path too long, through a file or unreadable names none (never an exception). */
export function localFileSize(full: string): number | null {
  try {
    const stat = fs.statSync(full, { throwIfNoEntry: false });
    if (!stat?.isFile()) return null;
    // A regular file by its metadata may still refuse reads (/proc/self/mem): try its first byte.
    const fd = fs.openSync(full, 'r');
    try {
      fs.readSync(fd, Buffer.alloc(1), 0, 1, 0);
    } finally {
      fs.closeSync(fd);
    }
    return stat.size;
  } catch {
    return null;
  }
}

/** Copies an operator's local file into public storage, checked by its content. Returns the object key. */
export async function publishLocalFile({ db, storage }: FileStore, file: string, kind: PublishableKind): Promise<string> {
  const full = path.resolve(file);
  if (localFileSize(full) === null) throw new ApiError(`文件不存在：${file}`);
  const ext = sniffFile(full);
  if (!ext || !(PUBLISHABLE[kind] as readonly string[]).includes(ext)) throw new ApiError(`不支持的文件格式：${file}（需要 ${PUBLISHABLE[kind].join('/')}）`);
  const key = newObjectKey('public', ext);
  const { size } = await storage.put(key, fs.createReadStream(full));
  await db.query(`INSERT INTO files (user_id, kind, object_key, size) VALUES (NULL, $1, $2, $3)`, [kind, key, size]);
  return key;
}
