import { lazyChunk, lazyPart, definePlugin } from '../../core';
import { CreationState, CreationStateToken } from './creation-state';
import { CREATE_ROUTE, CreationCommands } from './creation-commands';
import { multiples } from './multiples/module';

const CreatePanel = lazyChunk(() => import('./panels/CreatePanel'));
const PetEstablishPanel = lazyPart(() => import('./panels/CreatePanel'), 'PetEstablishPanel');
const CharactersPanel = lazyPart(() => import('./panels/CreatePanel'), 'CharactersPanel');

/**
 * /create, /pet/establish and /store/characters (part 2 §2.2) and /multiples, and the palette commands of the script
 * editor (core's, which the dubbing studio shows too): pause chips, polish, AI writing, audition, submit.
 */
export const plugin = definePlugin('creation', {
  services: [[CreationStateToken, CreationState], ...multiples.services],
  commands: [CreationCommands, ...multiples.commands],
  panels: [
    { route: CREATE_ROUTE, component: CreatePanel },
    { route: '/pet/establish', component: PetEstablishPanel },
    // part 1's name of the same screen
    { route: '/establishPet', component: PetEstablishPanel },
    { route: '/store/characters', component: CharactersPanel },
    ...multiples.panels,
  ],
});
