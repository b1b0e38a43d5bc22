import { defineFeature } from '../../app-context';
import { registerVideoGenRoutes } from './videogen.routes';
import { runVideoGeneration } from './videogen.jobs';

/** Text to video and image to video (part 2 §2.9): Kling, and camera motion made on this machine for pictures. */
export const videogenFeature = defineFeature({
  name: 'videogen',
  register: registerVideoGenRoutes,
  jobs: { 'videogen-run': (ctx, { recordId }, job) => runVideoGeneration(ctx, recordId, job) },
});
