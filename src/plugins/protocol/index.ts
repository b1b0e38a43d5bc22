import { lazy } from 'react';
import { definePlugin } from '../../core';

const ProtocolPage = lazy(() => import('./panels/ProtocolPage'));

export const plugin = definePlugin('protocol', { panels: [{ route: '/protocol', component: ProtocolPage }] });
