/** The sweep of uploads that were signed and sent but never registered. */
import type { FeatureContext } from '../../app-context';
import { UploadRepository } from './upload.repository';

/** Releases reservations of uploads that were never registered, and their half-done objects. */
export async function sweepUploads({ db, storage }: Pick<FeatureContext, 'db' | 'storage'>): Promise<number> {
  const keys = await new UploadRepository(db).releaseExpired();
  for (const key of keys) {
    if (key) await (key.endsWith('/') ? storage.removeAll(key) : storage.delete(key)).catch(() => undefined);
  }
  return keys.length;
}
