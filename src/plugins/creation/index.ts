import { lazyChunk, definePlugin } from '../../core';
import { CreationCommandsToken, CreationState, CreationStateToken } from './creation-state';
import { CREATE_ROUTE, CreationCommands } from './creation-commands';
import { multiples } from './multiples/module';

const CreatePanel = lazyChunk(() => import('./panels/CreatePanel'));
const PetEstablishPanel = lazyChunk(() => import('./panels/CreatePanel').then((m) => ({ default: m.PetEstablishPanel })));
const CharactersPanel = lazyChunk(() => import('./panels/CreatePanel').then((m) => ({ default: m.CharactersPanel })));

/**
 * /create, /pet/establish and /store/characters (part 2 §2.2) and /multiples, and the palette commands of the script
 * editor (core's, which the dubbing studio shows too): pause chips, polish, AI writing, audition, submit.
 */
export const plugin = definePlugin('creation', {
  services: [[CreationStateToken, CreationState], [CreationCommandsToken, CreationCommands], ...multiples.services],
  commands: [CreationCommandsToken, ...multiples.commands],
  panels: [
    { route: CREATE_ROUTE, component: CreatePanel },
    { route: '/pet/establish', component: PetEstablishPanel },
    // part 1's name of the same screen
    { route: '/establishPet', component: PetEstablishPanel },
    { route: '/store/characters', component: CharactersPanel },
    ...multiples.panels,
  ],
});
