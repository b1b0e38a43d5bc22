import { defineFeature, type FeatureContext } from '../../app-context';
import { registerVoiceRoutes, type VoiceJobs } from './voices.routes';
import { registerChannelAdminRoutes } from './channel-admin.routes';

export { SpeechService } from './speech-service';

// TODO(voices module): the job runners still live in the routes closure; this map goes when they move to voices.jobs.ts.
const runners = new WeakMap<FeatureContext, VoiceJobs>();
const of = (ctx: FeatureContext) => runners.get(ctx)!;

export const voicesFeature = defineFeature({
  name: 'voices',
  register(ctx) {
    runners.set(ctx, registerVoiceRoutes(ctx));
    registerChannelAdminRoutes(ctx);
  },
  jobs: {
    'voice-train': (ctx, { trainingId }, job) => of(ctx).runTraining(trainingId, job.retryCount),
    'speech-synthesize': (ctx, { jobId }, job) => of(ctx).runSpeech(jobId, job.retryCount),
    'audition-sweep': async (ctx) => {
      await of(ctx).sweepAuditions();
    },
  },
});
