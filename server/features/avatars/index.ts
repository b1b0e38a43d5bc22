import { defineFeature } from '../../app-context';
import { registerAvatarRoutes, runAvatarClone } from './avatars.routes';

export const avatarsFeature = defineFeature({
  name: 'avatars',
  register: registerAvatarRoutes,
  jobs: {
    'avatar-clone': (ctx, { avatarId }, job) => runAvatarClone(ctx, avatarId, job.retryCount),
  },
});
