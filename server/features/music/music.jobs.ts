/** The music-generate job: one task's lyrics (when needed) and music, stored or refunded (see music.service.ts). */
import type { FeatureJob } from '../../app-context';
import { runMusic } from './music.service';

export const musicGenerate: FeatureJob<'music-generate'> = (ctx, { musicId }, job) => runMusic(ctx, musicId, job);
