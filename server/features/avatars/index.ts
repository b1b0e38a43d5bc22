import { defineFeature } from '../../app-context';
import { registerAvatarRoutes } from './avatars.routes';
import { runAvatarClone } from './avatars.jobs';

/** Works appear as avatars (own or public); the operator's publish clones through the same job. */
export { AvatarsRepository, type AvatarRow } from './avatars.repository';
export { analyseAndStoreFaces, analyseFaces, FACE_OK, startClone } from './avatars.service';

export const avatarsFeature = defineFeature({
  name: 'avatars',
  register: registerAvatarRoutes,
  jobs: {
    'avatars-clone': (ctx, { avatarId }, job) => runAvatarClone(ctx, avatarId, job.retryCount),
  },
});
