import { defineFeature } from '../../app-context';
import { registerVoiceRoutes } from './voices.routes';
import { registerChannelAdminRoutes } from './channel-admin.routes';
import { runSpeech, runTraining, sweepAuditions } from './voices.jobs';

/** Speech for other features (through ctx.speech): usable voices and synthesis with their channel's engine. */
export { SpeechService } from './speech-service';
export { VoicesRepository, type VoiceRow } from './voices.repository';

export const voicesFeature = defineFeature({
  name: 'voices',
  register(ctx) {
    registerVoiceRoutes(ctx);
    registerChannelAdminRoutes(ctx);
  },
  jobs: {
    'voices-train': (ctx, { trainingId }, job) => runTraining(ctx, trainingId, job.retryCount),
    'voices-synthesize': (ctx, { jobId }, job) => runSpeech(ctx, jobId, job.retryCount),
    'voices-sweep': async (ctx) => {
      await sweepAuditions(ctx);
    },
  },
});
