import { defineFeature } from '../../app-context';
import { registerVoiceRoutes } from './voices.routes';
import { runSpeech, runTraining, sweepAuditions } from './voices.jobs';

/** Speech for other features (through ctx.speech): usable voices and synthesis with their channel's engine. */
export { SpeechService } from './speech-service';
export { VoicesRepository, type VoiceRow, type ChannelKind } from './voices.repository';
/** The admin feature publishes public voices through it (training as for the user's own). */
export { startTraining } from './voices.service';

export const voicesFeature = defineFeature({
  name: 'voices',
  register: registerVoiceRoutes,
  jobs: {
    'voices-train': (ctx, { trainingId }, job) => runTraining(ctx, trainingId, job.retryCount),
    'voices-synthesize': (ctx, { jobId }, job) => runSpeech(ctx, jobId, job.retryCount),
    'voices-sweep': async (ctx) => {
      await sweepAuditions(ctx);
    },
  },
});
