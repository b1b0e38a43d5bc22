/** The dubbing job: one dub's lines spoken, joined (and laid over its music), stored with its SRT (see dubbing.service.ts). */
import type { FeatureJob } from '../../app-context';
import { runDubbing } from './dubbing.service';

export const dubbingRun: FeatureJob<'dubbing-run'> = (ctx, { dubbingId }, job) => runDubbing(ctx, dubbingId, job);
