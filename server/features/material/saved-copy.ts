import type { MaterialType } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { copyToUserFile, type StoredKind } from '../../infra/user-files';
import { MaterialRepository } from './material.repository';

/**
 * A tool's result (a dub, a track, a picture) saved to the material library as the user's own copy, so that deleting
 * the result or the material leaves the other whole: the object copied into a file of the user's, and a saved
 * material of that file. Answers the material's id.
 */
export async function saveCopyToMaterial(
  ctx: FeatureContext,
  userId: number,
  from: { key: string; ext: string; kind: StoredKind; duration?: number },
  material: { type: MaterialType; name: string; origin: string },
): Promise<number> {
  const copy = await copyToUserFile(ctx, userId, from.key, from.ext, from.kind, from.duration);
  return new MaterialRepository(ctx.db).addSavedFile(userId, { ...material, fileId: copy.fileId });
}
