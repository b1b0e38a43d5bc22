import { defineFeature } from '../../app-context';
import { translationRun } from './translation.jobs';
import { registerTranslationRoutes } from './translation.routes';

/** Video translation (part 2 §2.7): recognition, translation by the chat engine, fitted dubbing, optional lip sync. */
export const translationFeature = defineFeature({
  name: 'translation',
  register: registerTranslationRoutes,
  jobs: { 'translation-run': translationRun },
});
