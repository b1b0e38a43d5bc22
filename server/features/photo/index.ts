import { defineFeature } from '../../app-context';
import { registerPhotoRoutes } from './photo.routes';

/** The works and one-click features make works from pictures through these: the picture at submit, its render in the job. */
export { PictureGone, pictureForWork, renderPictureTalking, renderPictureWork } from './photo.service';
export { PhotoRepository } from './photo.repository';

/** Pet and person pictures (part 2 §2.4): the user's own and the public AI library; works from them render in the works job. */
export const photoFeature = defineFeature({ name: 'photo', register: registerPhotoRoutes });
