/** The text-to-image job: one record's pictures, asked of the image engine and stored (see imagegen.service.ts). */
import type { FeatureJob } from '../../app-context';
import { runImageGeneration } from './imagegen.service';

export const imageGenerateJob: FeatureJob<'imagegen-run'> = (ctx, payload, job) => runImageGeneration(ctx, payload.recordId, job, ctx.app.log);
