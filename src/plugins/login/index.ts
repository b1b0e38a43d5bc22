import { lazyChunk, definePlugin } from '../../core';

const LoginPage = lazyChunk(() => import('./panels/LoginPage'));

export const plugin = definePlugin('login', { panels: [{ route: '/login', component: LoginPage }] });
