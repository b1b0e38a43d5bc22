/** The pet and person picture calls (part 2 §7): list mine or the public AI library, add from an upload, delete my own; the operator's publish. */
import { API, MSG, PhotoSource } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import type { FeatureContext } from '../../app-context';
import { requestedPage } from '../../infra/db';
import { deleteObjects } from '../../infra/user-files';
import { checkOperatorFile } from '../upload';
import { PhotoRepository } from './photo.repository';
import { addOwnPhoto, addPhoto } from './photo.service';

export function registerPhotoRoutes(ctx: FeatureContext): void {
  const { router, db, urls } = ctx;
  const photos = new PhotoRepository(db);

  router.handle(API.photo.list, async ({ params, user }) => {
    const { rows, total } = await photos.list(user.id, { source: params.source, type: params.type, ...requestedPage(params, 0, 9999) });
    return {
      list: rows.map((p) => ({
        id: p.id,
        name: p.name,
        url: urls.url(p.image_key),
        cover: urls.url(p.cover_key),
        source: p.user_id === null ? PhotoSource.Public : PhotoSource.Mine,
        type: Number(p.type),
        mouth_x: p.mouth_x === null ? null : Number(p.mouth_x),
        mouth_y: p.mouth_y === null ? null : Number(p.mouth_y),
      })),
      total,
    };
  });

  router.handle(API.photo.create, async ({ params, user }) => ({
    id: await addOwnPhoto(ctx, user.id, {
      type: params.type, name: params.name, fileId: params.file_id, materialId: params.material_id,
      mouth: params.mouth_x !== undefined && params.mouth_y !== undefined ? { x: params.mouth_x, y: params.mouth_y } : undefined,
    }),
  }));

  router.handle(API.photo.remove, async ({ params, user }) => {
    const removed = await photos.removeOwn(params.id, user.id);
    if (!removed) {
      // The server's own answer for the AI library, whatever the screen shows; others' pictures stay unseen.
      const found = await photos.exists(params.id);
      throw new ApiError(found && found.user_id === null ? MSG.photoPublicUndeletable : MSG.photoMissing);
    }
    await deleteObjects(ctx, [removed.image_key, removed.cover_key]);
    return {};
  });

  router.handle(API.photo.publish, async ({ params }) => {
    const { file } = await checkOperatorFile(params.image, 'image');
    return { id: await addPhoto(ctx, { userId: null, type: params.type, name: params.name, file }) };
  });
}
