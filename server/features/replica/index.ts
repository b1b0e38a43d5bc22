import { defineFeature } from '../../app-context';
import { replicaAnalyse } from './replica.jobs';
import { registerReplicaRoutes } from './replica.routes';

/** Super replica (/explosiveAnalysis): personas, products, viral video and account analyses, 仿写 and scripts. */
export const replicaFeature = defineFeature({
  name: 'replica',
  register: registerReplicaRoutes,
  jobs: { 'replica-analyse': replicaAnalyse },
});
