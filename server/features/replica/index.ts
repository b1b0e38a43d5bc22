import { defineFeature } from '../../app-context';
import { replicaAnalyse } from './replica.jobs';
import { registerReplicaRoutes } from './replica.routes';

/** One chat answer charged as one and refunded on failure; one-click creation's 生成文案 and picture prompts use it. */
export { paidAnswer } from './replica.service';

/** Super replica (/explosiveAnalysis): personas, products, viral video and account analyses, 仿写 and scripts. */
export const replicaFeature = defineFeature({
  name: 'replica',
  register: registerReplicaRoutes,
  jobs: { 'replica-analyse': replicaAnalyse },
});
