import { defineFeature } from '../../app-context';
import { dubbingRun } from './dubbing.jobs';
import { registerDubbingRoutes } from './dubbing.routes';

/** The dubbing studio (/store/dubbing/index): lines spoken by roles' voices into one mp3 and its SRT, history, save to material. */
export const dubbingFeature = defineFeature({
  name: 'dubbing',
  register: registerDubbingRoutes,
  jobs: { 'dubbing-run': dubbingRun },
});
