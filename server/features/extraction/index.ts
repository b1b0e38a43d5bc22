import { defineFeature } from '../../app-context';
import { registerExtractionRoutes } from './extraction.routes';
import { runExtraction } from './extraction.service';

/** Copy extraction takes its links, its videos and its free count as extraction does. */
export { checkedMedia, downloadLinkedVideo, fetchFailureReason, linkIn, submittedLink } from './extraction.service';
export { addCharged, failCharged, freeDaily } from './charged-record';
export { ExtractionType } from './extraction.repository';

/** Video and audio extraction (part 2 §2.5, §2.6): link-parse engines, guarded downloads, records as jobs, save to assets. */
export const extractionFeature = defineFeature({
  name: 'extraction',
  register: registerExtractionRoutes,
  jobs: { 'extraction-run': (ctx, { extractionId }, job) => runExtraction(ctx, extractionId, job) },
});
