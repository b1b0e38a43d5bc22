import { lazyChunk, definePlugin } from '../../core';
import { MusicState, MusicStateToken } from './music-state';
import { MUSIC_ROUTE } from './music-view';

const MusicPanel = lazyChunk(() => import('./panels/MusicPanel'));

/** /store/music/index: AI music (描述, 纯音乐/带人声, lyrics, title, price behind a confirmation), 我的音乐 and the music library. */
export const plugin = definePlugin('music', { services: [[MusicStateToken, MusicState]], panels: [{ route: MUSIC_ROUTE, component: MusicPanel }] });
