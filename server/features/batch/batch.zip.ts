/** A batch's finished videos (and their SRTs) as one zip, named after the rows, stored as the user's file. */
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { BatchRowStatus } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { withWorkDir } from '../../infra/work-dirs';
import { deleteObjects, storeUserFile } from '../../infra/user-files';
import { BatchRepository, rowStatus, type BatchRowState } from './batch.repository';

/** A row's file name: its number (names may repeat) and its name, without what a file system refuses. */
export const entryName = (r: Pick<BatchRowState, 'idx' | 'name'>, ext: string) =>
  `${String(r.idx).padStart(3, '0')}-${r.name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').slice(0, 60)}.${ext}`;

/** Builds the zip of the done rows (undefined when none is done) and answers its stored key. */
export async function zipBatch(ctx: FeatureContext, userId: number, batchId: number): Promise<string | undefined> {
  const repo = new BatchRepository(ctx.db);
  const done = (await repo.rows(batchId)).filter((r) => rowStatus(r) === BatchRowStatus.Done && r.video_key);
  if (!done.length) return undefined;
  // The zip library takes almost half a second to load: only when a zip is made.
  const { ZipArchive } = await import('archiver');
  return withWorkDir(ctx.config.dataDir, async (dir) => {
    const file = path.join(dir, 'batch.zip');
    const out = fs.createWriteStream(file);
    const archive = new ZipArchive({ zlib: { level: 1 } }); // mp4 barely compresses: store quickly
    const failed = once(archive, 'error');
    archive.pipe(out);
    for (const r of done) {
      archive.append(ctx.storage.get(r.video_key!), { name: entryName(r, 'mp4') });
      if (r.srt_key) archive.append(ctx.storage.get(r.srt_key), { name: entryName(r, 'srt') });
    }
    await Promise.race([Promise.all([archive.finalize(), once(out, 'close')]), failed.then(([err]) => Promise.reject(err as Error))]);
    const { key } = await storeUserFile(ctx, userId, file, 'zip', 'other');
    await deleteObjects(ctx, [await repo.replaceZip(batchId, key)]);
    return key;
  });
}
