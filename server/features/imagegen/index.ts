import { defineFeature } from '../../app-context';
import { registerImageGenRoutes } from './imagegen.routes';
import { imageGenerateJob } from './imagegen.jobs';

/** One-click creation's 生成配图 queues its pictures as text-to-image records, priced and rendered the same. */
export { imageEngineConfig, submitImageGeneration } from './imagegen.service';

/** Text to image (part 2 §2.8): records, suggested prompts, save to material; the job asks the operator's image engine. */
export const imagegenFeature = defineFeature({ name: 'imagegen', register: registerImageGenRoutes, jobs: { 'imagegen-run': imageGenerateJob } });
