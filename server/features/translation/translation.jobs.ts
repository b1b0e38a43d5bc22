/** The translation job: one record's whole pipeline, resuming from the steps a previous run stored. */
import type { FeatureJob } from '../../app-context';
import { runTranslation } from './translation.service';

export const translationRun: FeatureJob<'translation-run'> = (ctx, { translationId }, job) => runTranslation(ctx, translationId, job);
