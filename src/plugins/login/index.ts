import { lazy } from 'react';
import { definePlugin } from '../../core';

const LoginPage = lazy(() => import('./panels/LoginPage'));

export const plugin = definePlugin('login', { panels: [{ route: '/login', component: LoginPage }] });
