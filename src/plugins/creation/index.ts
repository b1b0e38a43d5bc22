import { lazy } from 'react';
import { definePlugin } from '../../core';
import { CreationCommandsToken, CreationState, CreationStateToken } from './creation-state';
import { CREATE_ROUTE, CreationCommands } from './creation-commands';
import { multiples } from './multiples/module';
import { dubbing } from './dubbing/module';

const CreatePanel = lazy(() => import('./panels/CreatePanel'));
const PetEstablishPanel = lazy(() => import('./panels/CreatePanel').then((m) => ({ default: m.PetEstablishPanel })));
const CharactersPanel = lazy(() => import('./panels/CreatePanel').then((m) => ({ default: m.CharactersPanel })));

/**
 * /create, /pet/establish and /store/characters (part 2 §2.2), /multiples and the dubbing studio (/store/dubbing/index), and the
 * script editor they share: pause chips, polish, AI writing, the limit.
 */
export const plugin = definePlugin('creation', {
  services: [[CreationStateToken, CreationState], [CreationCommandsToken, CreationCommands], ...multiples.services, ...dubbing.services],
  commands: [CreationCommandsToken, ...multiples.commands, ...dubbing.commands],
  panels: [
    { route: CREATE_ROUTE, component: CreatePanel },
    { route: '/pet/establish', component: PetEstablishPanel },
    // part 1's name of the same screen
    { route: '/establishPet', component: PetEstablishPanel },
    { route: '/store/characters', component: CharactersPanel },
    ...multiples.panels,
    ...dubbing.panels,
  ],
});
