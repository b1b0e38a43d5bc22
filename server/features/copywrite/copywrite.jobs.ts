/** The copy extraction job: one record's video fetched and its copy read (see copywrite.service.ts). */
import type { FeatureJob } from '../../app-context';
import { runCopyRead } from './copywrite.service';

export const copywriteRead: FeatureJob<'copywrite-read'> = (ctx, { copyId }, job) => runCopyRead(ctx, copyId, job);
