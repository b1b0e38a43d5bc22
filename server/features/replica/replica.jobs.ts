/** The video analysis job: a viral video's copy read, then analysed by the chat engine (see replica.service.ts). */
import type { FeatureJob } from '../../app-context';
import { runVideoAnalysis } from './replica.service';

export const replicaAnalyse: FeatureJob<'replica-analyse'> = (ctx, { videoId }, job) => runVideoAnalysis(ctx, videoId, job);
