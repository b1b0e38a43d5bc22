import { defineFeature } from '../../app-context';
import { registerWorksRoutes } from './works.routes';
import { runWorkRender } from './works.jobs';

/** What one-click creation (its own render job of a work) uses of works. */
export { WorksRepository, type RenderRow, type WorkParams } from './works.repository';
export { WorkCannotRender, cancelQueuedWork, failWork, finishWork, speak, speechSettings, type RenderedWork } from './works.service';
/** What batch creation uses: the same checks, price and queueing as works.create. */
export { planWork, queueWork, type Submission, type WorkPlan } from './submission';
export { faceInputOf } from './works.jobs';
export { runRemoteRender, type RemoteRenderUse } from './remote-render';
export { captionsOfWork, withSubtitles } from './subtitles';
export { withBackgroundMusic, workBgm } from './background-music';

export const worksFeature = defineFeature({
  name: 'works',
  register: registerWorksRoutes,
  jobs: {
    'works-render': (ctx, { workId, step }, job) => runWorkRender(ctx, workId, job.retryCount, step),
  },
});
