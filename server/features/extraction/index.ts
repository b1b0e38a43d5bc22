import { defineFeature } from '../../app-context';
import { registerExtractionRoutes } from './extraction.routes';
import { runExtraction } from './extraction.service';

/** Video and audio extraction (part 2 §2.5, §2.6): link-parse engines, guarded downloads, records as jobs, save to assets. */
export const extractionFeature = defineFeature({
  name: 'extraction',
  register: registerExtractionRoutes,
  jobs: { 'extraction-run': (ctx, { extractionId }, job) => runExtraction(ctx, extractionId, job) },
});
