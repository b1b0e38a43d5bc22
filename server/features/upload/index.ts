import { defineFeature } from '../../app-context';
import { registerUploadRoutes } from './upload.routes';
import { sweepUploads } from './upload.jobs';

export const uploadFeature = defineFeature({
  name: 'upload',
  register: (ctx) => registerUploadRoutes(ctx),
  jobs: {
    'upload-sweep': async (ctx) => {
      await sweepUploads(ctx);
    },
  },
});

/** Content checks, for the operator's publish commands too. */
export { checkMedia, MediaRefused } from './upload.rules';
/** The user's own files, for the features that take an upload. */
export { UploadRepository } from './upload.repository';
/** What a multipart form adds to its file, for the features that take one straight (bot.hear). */
export { FORM_OVERHEAD, uploadService } from './upload.service';
/** The operator's local files, checked before they are published. */
export { checkOperatorFile } from './upload.service';
/** Content checks and limits by type, for the public API's uploads. */
export { MAX_BYTES, REFUSED } from './upload.rules';
