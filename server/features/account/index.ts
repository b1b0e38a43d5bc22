import { defineFeature } from '../../app-context';
import { registerAccountRoutes } from './account.routes';

export const accountFeature = defineFeature({
  name: 'account',
  register: registerAccountRoutes,
  jobs: {
    'account-sweep': async ({ sessions }) => {
      await sessions.sweep();
    },
  },
});
