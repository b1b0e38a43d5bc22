import { defineFeature } from '../../app-context';
import { musicGenerate } from './music.jobs';
import { registerMusicRoutes } from './music.routes';

/** Music pickers elsewhere (dubbing, /create) resolve a chosen track through it. */
export { MusicRepository } from './music.repository';

/** AI music (/store/music/index) and the music library every music picker offers. */
export const musicFeature = defineFeature({
  name: 'music',
  register: registerMusicRoutes,
  jobs: { 'music-generate': musicGenerate },
});
