import { lazy } from 'react';
import { definePlugin } from '../../core';
import { CreationCommandsToken, CreationState, CreationStateToken } from './creation-state';
import { CREATE_ROUTE, CreationCommands } from './creation-commands';
import { multiples } from './multiples/module';

const CreatePanel = lazy(() => import('./panels/CreatePanel'));

/** /create (part 2 §2.2) and the script editor shared by every text scene: pause chips, polish, AI writing, the limit. */
export const plugin = definePlugin('creation', {
  services: [[CreationStateToken, CreationState], [CreationCommandsToken, CreationCommands], ...multiples.services],
  commands: [CreationCommandsToken, ...multiples.commands],
  panels: [{ route: CREATE_ROUTE, component: CreatePanel }, ...multiples.panels],
});
