import { defineFeature } from '../../app-context';
import { copywriteRead } from './copywrite.jobs';
import { registerCopywriteRoutes } from './copywrite.routes';

/** Copy extraction (/copywrite/index, /store/copywrite/trace): the copy of a video read from its speech or its captions. */
export const copywriteFeature = defineFeature({
  name: 'copywrite',
  register: registerCopywriteRoutes,
  jobs: { 'copywrite-read': copywriteRead },
});

/** Super replica reads a video's copy as copy extraction does. */
export { readVideoCopy, submittedVideo, type ReadCopy, type VideoSource } from './copywrite.service';
export type { VideoCopyRow } from './copywrite.repository';
